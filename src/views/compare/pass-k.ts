import type { ComparedScenario, Comparison, ScenarioSide } from '../../verdict/comparison.ts'
import { passAtK, passHatK } from '../../base/stats/reliability.ts'
import { percent } from '../page/format.ts'

/**
 * pass^k and pass@k in a comparison, computed as report.html computes them (stats/reliability.ts:
 * C(c, k)/C(n, k) per scenario, from its own n, averaged over scenarios), on the attempts the pass
 * rates count (agent errors among the fails).
 *
 * One k for the whole comparison: the attempts per scenario, at most 3. With k attempts, pass^k of
 * one scenario is only "all passed or not"; pass³ from 5 attempts still grades a flaky scenario (4/5
 * gives 40%), and is what a user who asks three times meets. At k = 1 it is the pass rate: not shown.
 */
export const PASS_K_AT_MOST = 3

/** The k shown, or null when there is nothing beyond the pass rate to show. */
export function shownK(c: Pick<Comparison, 'sensitivity'>): number | null {
  const k = Math.min(PASS_K_AT_MOST, c.sensitivity.attemptsPerScenario)
  return k >= 2 ? k : null
}

const SUPERSCRIPT = '⁰¹²³⁴⁵⁶⁷⁸⁹'
/** "pass³", as plain text: a caret would be markup in some places and noise in others. */
export function passHat(k: number): string {
  return `pass${[...String(k)].map((digit) => SUPERSCRIPT[Number(digit)]).join('')}`
}

/** The one line that says what the numbers mean. */
export function passKMeaning(k: number): string {
  return `${passHat(k)}: the chance that ${k} fresh attempts of a scenario all pass; pass@${k}: that at least one of them does (estimated from each scenario's attempts).`
}

/**
 * Whether pass^k says anything the pass rates do not: only a scenario that passed some attempts and
 * failed others (on either side) has a pass^k other than its pass rate, 0 or 1.
 */
export function anyFlaky(scenarios: readonly Pick<ComparedScenario, 'before' | 'after'>[]): boolean {
  return scenarios.some((s) => [s.before, s.after].some((side) => side.passed > 0 && side.passed < side.judged))
}

export function comparedScenarios(c: Comparison): ComparedScenario[] {
  return [...c.scenarios.worse, ...c.scenarios.better, ...c.scenarios.same]
}

export interface SideK {
  hat: number | null
  at: number | null
}

/** One side of one scenario; null values when it has fewer than k attempts with a verdict. */
export function sideK(side: ScenarioSide | null, k: number): SideK {
  const counts = side ? [{ passed: side.passed, total: side.judged }] : []
  return { hat: passHatK(counts, k).value, at: passAtK(counts, k).value }
}

/** Both runs over the compared scenarios. */
export function overallK(c: Comparison, k: number): { before: SideK; after: SideK } {
  const compared = comparedScenarios(c)
  const of = (side: 'before' | 'after') => {
    const counts = compared.map((s) => ({ passed: s[side].passed, total: s[side].judged }))
    return { hat: passHatK(counts, k).value, at: passAtK(counts, k).value }
  }
  return { before: of('before'), after: of('after') }
}

/**
 * "100% → 40%", and pass@k beside it where it says something: when a side is flaky, so that pass@k
 * differs from pass^k ("retries would hide this").
 */
export function scenarioKText(s: Pick<ComparedScenario, 'before' | 'after'>, k: number): string {
  const [before, after] = [sideK(s.before, k), sideK(s.after, k)]
  const pct = (v: number | null) => (v === null ? '–' : percent(v))
  const hat = `${pct(before.hat)} → ${pct(after.hat)}`
  const says = [before, after].some((x) => x.hat !== null && x.at !== null && x.at !== x.hat)
  return says ? `${hat} (pass@${k} ${pct(before.at)} → ${pct(after.at)})` : hat
}
