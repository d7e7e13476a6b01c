import { atMost } from '../base/stats/counts.ts'
import { stratifiedExactTest } from '../base/stats/exact-tests.ts'
import { taroneCorrection } from '../base/stats/tarone.ts'
import type { ScenarioSide } from './comparison.ts'
import { COLLAPSE_ATTEMPTS, fisherOf } from './decide.ts'
import type { UserErrorCounts, UserErrorShift } from './evidence.ts'

/**
 * Levels of the user_error tests: one-sided, overall and family-wise per scenario. Lower than the pass
 * rate's (decide.ts): this is a second way to Worse, and an unchanged agent must stay within the
 * false-alarm budget with both (bench:gate, A/A rows). A review that launders failures is caught by the
 * strict comparison anyway (counted-against.ts); this test says why in words a reviewer needs.
 */
export const USER_ERROR_OVERALL_ALPHA = 0.0025
export const USER_ERROR_SCENARIO_ALPHA = 0.0025

interface Played {
  id: string
  before: ScenarioSide
  after: ScenarioSide
}

/** None before, every attempt after (at least COLLAPSE_ATTEMPTS each): the review's collapse, flagged like a pass rate's (decide.ts). */
function allRelabelled(row: { before: UserErrorCounts; after: UserErrorCounts }): boolean {
  return row.before.attempts >= COLLAPSE_ATTEMPTS && row.before.userErrors === 0 && row.after.attempts >= COLLAPSE_ATTEMPTS && row.after.userErrors === row.after.attempts
}

/** Compares the share of user_error between the runs over the scenarios both played alike. */
export function userErrorShift(pairs: readonly Played[]): UserErrorShift {
  const counts = (side: ScenarioSide): UserErrorCounts => ({ userErrors: side.userErrors, attempts: side.judged + side.noVerdicts + side.userErrors + side.notDecided })
  const rows = pairs.map((pair) => ({ id: pair.id, before: counts(pair.before), after: counts(pair.after) }))
  const asCounts = (c: UserErrorCounts) => ({ passed: c.userErrors, total: c.attempts })
  const usable = rows.filter((row) => row.before.attempts > 0 && row.after.attempts > 0)
  const tests = usable.map((row) => fisherOf(asCounts(row.after), asCounts(row.before)))
  const correction = taroneCorrection(tests.map((t) => t.minimumGreater), USER_ERROR_SCENARIO_ALPHA)
  const scenarios = usable
    .map((row, index) => ({ ...row, p: tests[index]!.greater }))
    .filter((row) => row.after.userErrors > 0 && (atMost(row.p, correction.threshold) || allRelabelled(row)))
    .sort((x, y) => x.p - y.p)
  const pRise = usable.length === 0 ? 1 : stratifiedExactTest(usable.map((row) => ({ first: asCounts(row.after), second: asCounts(row.before) }))).greater
  const sum = (pick: (row: (typeof rows)[number]) => UserErrorCounts) => rows.reduce((total, row) => ({ userErrors: total.userErrors + pick(row).userErrors, attempts: total.attempts + pick(row).attempts }), { userErrors: 0, attempts: 0 })
  const after = sum((row) => row.after)
  return { before: sum((row) => row.before), after, pRise, scenarios, rose: after.userErrors > 0 && (scenarios.length > 0 || atMost(pRise, USER_ERROR_OVERALL_ALPHA)) }
}
