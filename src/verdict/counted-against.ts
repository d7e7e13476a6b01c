import type { Counts } from '../base/stats/counts.ts'
import type { ComparedScenario, NotComparedScenario, ScenarioSide } from './comparison.ts'
import { decide, type Direction } from './decide.ts'
import { decidedOf } from './scenario-groups.ts'
import type { CountedAgainst, MissingKind, StrictComparison } from './evidence.ts'

/**
 * The strict comparison (evidence.ts: StrictComparison). Evidence the pull request's run lacks can never
 * make the gate more lenient than it would be with that evidence counted against it: here every
 * attempt without a verdict is a failed one, on both sides (so an unchanged agent with the same share
 * of such attempts is not Worse by it), in every scenario the baseline judged at least once.
 * - compared, edited, and no-verdict scenarios: their attempts as played, the edited ones against the
 *   baseline's old version;
 * - removed (gone without `retired:`): every one of the pull request's k attempts failed;
 * - retired and new scenarios: not counted (nothing to hold them against).
 * A scenario played fewer times than k in the pull request has its unplayed attempts failed too. In
 * an adaptive run (issue 39) k is what the rule gave each scenario: attempts it chose not to play are
 * not missing evidence, attempts it gave and an interruption left unplayed are.
 */
/**
 * Its levels, one-sided: lower than the comparison on verdicts (decide.ts), since the gate fails on
 * either and an unchanged agent must stay within the false-alarm budget with both (bench:gate, A/A).
 * The breaks it exists for need no level: a scenario that always passed and, counted this way, never
 * does now is Worse whatever the level (decide.ts: collapsed).
 */
export const STRICT_LEVELS = { overall: 0.0025, scenario: 0.0025 }

export function strictComparison(compared: readonly ComparedScenario[], notCompared: readonly NotComparedScenario[], expected: number | ((scenario: string) => number), onVerdicts: { verdict: Direction; pWorse: number }): StrictComparison {
  const rows: { id: string; before: Counts; beforeDecided: Counts; after: Counts; missing: MissingKind[] }[] = []
  const add = (id: string, before: ScenarioSide, after: ScenarioSide | null, edited: boolean) => {
    if (before.judged === 0) return
    const k = typeof expected === 'number' ? expected : expected(id)
    const played = after === null ? 0 : playedOf(after)
    const missing: MissingKind[] = after === null ? ['removed'] : missingOf(after, k)
    if (edited) missing.push('edited')
    rows.push({ id, before: { passed: before.passed, total: playedOf(before) }, beforeDecided: decidedOf(before), after: { passed: after?.passed ?? 0, total: Math.max(played, k) }, missing })
  }
  for (const s of compared) add(s.id, s.before, s.after, false)
  for (const s of notCompared) {
    if (s.before === null || s.reason === 'retired' || s.reason === 'only-after') continue
    add(s.id, s.before, s.after, s.reason === 'edited')
  }
  // Nothing lacking on either side: the same counts as the comparison on verdicts, at lower levels, so
  // nothing to add — and a large suite is not tested twice.
  const lacking = rows.length !== compared.length || rows.some((row, index) => row.missing.length > 0 || row.before.total !== compared[index]!.before.judged)
  if (!lacking) return { verdict: onVerdicts.verdict, pWorse: onVerdicts.pWorse, worse: [], hidden: [] }
  // The collapse rule reads the baseline's decided attempts here too: its own missing verdicts counted
  // as failed would otherwise switch the rule off exactly where the pull request's are counted against it.
  const decision = decide(rows.map((row) => ({ before: row.before, after: row.after, beforeDecided: row.beforeDecided })), STRICT_LEVELS)
  const worse: CountedAgainst[] = rows
    .map((row, index) => ({ row, decided: decision.scenarios[index]! }))
    .filter(({ decided }) => decided.group === 'worse')
    .sort((x, y) => x.decided.pWorse - y.decided.pWorse || (x.row.id < y.row.id ? -1 : 1))
    .map(({ row, decided }) => ({ id: row.id, before: row.before, after: row.after, pWorse: decided.pWorse, missing: row.missing }))
  return { verdict: decision.verdict, pWorse: decision.overall.pWorse, worse, hidden: [] }
}

/** Sets `hidden`: the strict comparison's Worse scenarios that the comparison on verdicts does not call Worse. */
export function withHidden(strict: StrictComparison, worseOnVerdicts: readonly { id: string }[]): StrictComparison {
  const seen = new Set(worseOnVerdicts.map((s) => s.id))
  return { ...strict, hidden: strict.worse.filter((s) => !seen.has(s.id)) }
}

/** Every attempt played: with a verdict, without one, relabelled user_error, or nothing decided. */
function playedOf(side: ScenarioSide): number {
  return side.judged + side.noVerdicts + side.userErrors + side.notDecided
}

function missingOf(side: ScenarioSide, k: number): MissingKind[] {
  const missing: MissingKind[] = []
  if (side.noVerdicts > 0) missing.push('no-verdict')
  if (side.userErrors > 0) missing.push('user-error')
  if (side.notDecided > 0) missing.push('not-decided')
  if (playedOf(side) < k) missing.push('unplayed')
  return missing
}
