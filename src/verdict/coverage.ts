import { atMost } from '../base/stats/counts.ts'
import type { Coverage, NotComparedScenario, ScenarioSide } from './comparison.ts'
import { fisherOf, SCENARIO_ALPHA } from './decide.ts'
import { plural } from '../base/shared/text.ts'
import { binomialAtLeast } from '../base/stats/exact-tests.ts'

/** More than this share of a run's attempts without a verdict leaves the comparison inconclusive. */
export const MISSING_VERDICTS_LIMIT = 0.2

/**
 * The share of attempts without a verdict a healthy run has (5%, issue 38's measurements). In a small
 * run a few missing verdicts pass a fifth by chance (3 of 14 attempts: 3% of healthy runs at S = 5,
 * k = 3), so the share counts only when its count is also significantly above this (one-sided
 * binomial at MISSING_COUNT_ALPHA); from about 60 attempts on, the share alone decides.
 */
export const HEALTHY_NO_VERDICT_SHARE = 0.05
export const MISSING_COUNT_ALPHA = 0.01

interface Played {
  id: string
  before: ScenarioSide
  after: ScenarioSide
}

/**
 * Whether attempts without a verdict (convy-ci's own models failed: no_verdict) leave the comparison
 * able to see what it is there to see. They never count against the agent; but a comparison that
 * lost too many of them can say neither Worse nor "within noise", only inconclusive.
 *
 * What a comparison is meant to catch is a scenario that stops passing. A scenario is blind when it
 * could register going from always passing to never (k/k → 0/k, alone, at the family's α) with every
 * attempt judged, and cannot with the verdicts it has: listed, for the reader. Whether such a
 * scenario hides a break is the strict comparison's to say (counted-against.ts), whatever their
 * share. Inconclusive (evidence missing): more than a fifth of a run's attempts without a verdict.
 */
export function verdictCoverage(compared: readonly Played[], notCompared: readonly NotComparedScenario[]): Coverage {
  const played: Played[] = [...compared]
  for (const s of notCompared) if (s.reason === 'no-verdict' && s.before && s.after) played.push({ id: s.id, before: s.before, after: s.after })
  const sum = (pick: (s: Played) => number) => played.reduce((total, s) => total + pick(s), 0)
  const noVerdicts = { before: sum((s) => s.before.noVerdicts), after: sum((s) => s.after.noVerdicts) }
  const attempts = { before: sum((s) => s.before.attempts), after: sum((s) => s.after.attempts) }
  const blindScenarios = played.filter((s) => canRegister(s.before.attempts, s.after.attempts) && !canRegister(s.before.judged, s.after.judged)).map((s) => s.id)

  // Testable before (k/k → 0/k could register against the attempts played after) and no verdict after at
  // all — beyond what this run's own rate of undecided attempts makes likely in some scenario by chance
  // (at k = 3 with 10% undecided, one scenario in a thousand is blind by chance: 5% of healthy runs of
  // 50 scenarios). Such a scenario is still counted as failed by the strict comparison.
  const played_ = (side: ScenarioSide) => side.attempts + side.userErrors + side.notDecided
  const undecided = sum((s) => played_(s.after) - s.after.judged) / Math.max(1, sum((s) => played_(s.after)))
  const byChance = (n: number) => undecided ** n > SCENARIO_ALPHA / Math.max(1, played.length)
  const blindAfter = played.filter((s) => s.after.judged === 0 && played_(s.after) > 0 && canRegister(s.before.judged, played_(s.after)) && !byChance(played_(s.after))).map((s) => s.id)

  const reasons: string[] = []
  for (const side of ['before', 'after'] as const) {
    if (attempts[side] > 0 && noVerdicts[side] / attempts[side] > MISSING_VERDICTS_LIMIT && atMost(binomialAtLeast(noVerdicts[side], attempts[side], HEALTHY_NO_VERDICT_SHARE), MISSING_COUNT_ALPHA)) {
      reasons.push(`${noVerdicts[side]} of ${plural(attempts[side], 'attempt')} ${side} have no verdict (convy-ci's own models failed)`)
    }
  }
  return { noVerdicts, attempts, blindScenarios, blindAfter, inconclusive: reasons.length === 0 ? null : `${reasons.join('; ')}.` }
}

/** Whether before/before → 0/after is one-sided significant at the family's α, with nothing else testable. */
function canRegister(before: number, after: number): boolean {
  if (before === 0 || after === 0) return false
  return atMost(fisherOf({ passed: 0, total: after }, { passed: before, total: before }).less, SCENARIO_ALPHA)
}
