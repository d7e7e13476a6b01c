import type { ClaimHolding, ScenarioTally } from '../records/tally/run-tally.ts'
import type { MovedClaim } from './comparison.ts'

/** At most this many per scenario: the ones a reviewer reads first. */
export const MOVED_SHOWN = 3

/**
 * The claims and checks of a scenario whose record moved the way the scenario did — held 5 of 5 →
 * 0 of 5 — largest move first: what a reviewer needs to know which promise broke. Only what both
 * runs decided at least once can be said to have moved.
 */
export function movedClaims(before: ScenarioTally | undefined, after: ScenarioTally | undefined, change: number): MovedClaim[] {
  if (!before || !after || change === 0) return []
  const moved: (MovedClaim & { by: number })[] = []
  const consider = (kind: MovedClaim['kind'], text: string, b: ClaimHolding | undefined, a: ClaimHolding | undefined) => {
    if (!b || !a || b.decided === 0 || a.decided === 0) return
    const by = a.held / a.decided - b.held / b.decided
    if (Math.sign(by) !== Math.sign(change)) return
    moved.push({ kind, text, before: { held: b.held, decided: b.decided }, after: { held: a.held, decided: a.decided }, by: Math.abs(by) })
  }
  for (const [claim, holding] of after.claims) consider('claim', claim, before.claims.get(claim), holding)
  for (const [key, holding] of after.checks) consider('check', key, before.checks.get(key), holding)
  return moved
    .sort((x, y) => y.by - x.by)
    .slice(0, MOVED_SHOWN)
    .map(({ by: _by, ...claim }) => claim)
}
