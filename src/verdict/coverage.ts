import { atMost } from '../base/stats/counts.ts'
import type { Coverage, NotComparedScenario, ScenarioSide } from './comparison.ts'
import { fisherOf, SCENARIO_ALPHA } from './decide.ts'
import { plural } from '../base/shared/text.ts'

/** More than this share of a run's attempts without a verdict leaves the comparison inconclusive. */
export const MISSING_VERDICTS_LIMIT = 0.2

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

  // Testable before (k/k → 0/k could register against the attempts played after) and no verdict after at all.
  const blindAfter = played.filter((s) => s.after.judged === 0 && s.after.attempts + s.after.userErrors + s.after.notDecided > 0 && canRegister(s.before.judged, s.after.attempts + s.after.userErrors + s.after.notDecided)).map((s) => s.id)

  const reasons: string[] = []
  for (const side of ['before', 'after'] as const) {
    if (attempts[side] > 0 && noVerdicts[side] / attempts[side] > MISSING_VERDICTS_LIMIT) {
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
