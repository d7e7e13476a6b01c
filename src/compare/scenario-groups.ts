import { scenarioFingerprint } from '../scenario/scenario.ts'
import { atMost, type Counts } from '../stats/counts.ts'
import { fisherExact } from '../stats/fisher.ts'
import { taroneCorrection, type TaroneCorrection } from '../stats/tarone.ts'
import type { ComparedScenario, NotComparedScenario, ScenarioSide } from './comparison.ts'
import { scenarioSide, type RunSums } from './run-sums.ts'

/** Family-wise error rate per direction for flagging single scenarios (stats.md §2). */
export const SCENARIO_ALPHA = 0.05
/** A raw one-sided p at or under this that does not survive the correction is a "possible" change. */
export const POSSIBLE_ALPHA = 0.05

export interface ScenarioGroups {
  compared: ComparedScenario[]
  notCompared: NotComparedScenario[]
  corrections: { worse: TaroneCorrection; better: TaroneCorrection }
}

/**
 * Sorts every scenario of either run into compared or not compared (and why), tests each compared
 * one in both directions, and flags those that survive Tarone's correction.
 */
export function groupScenarios(before: RunSums, after: RunSums): ScenarioGroups {
  const notCompared: NotComparedScenario[] = []
  const pairs: { id: string; before: ScenarioSide; after: ScenarioSide }[] = []
  for (const [id, tally] of before.scenarios) {
    const other = after.scenarios.get(id)
    const beforeSide = scenarioSide(tally)
    if (!other) {
      notCompared.push({ id, reason: 'only-before', before: beforeSide, after: null })
      continue
    }
    const afterSide = scenarioSide(other)
    if (scenarioFingerprint(tally.scenario) !== scenarioFingerprint(other.scenario)) notCompared.push({ id, reason: 'edited', before: beforeSide, after: afterSide })
    else if (beforeSide.judged === 0 || afterSide.judged === 0) notCompared.push({ id, reason: 'no-verdict', before: beforeSide, after: afterSide })
    else pairs.push({ id, before: beforeSide, after: afterSide })
  }
  for (const [id, tally] of after.scenarios) {
    if (!before.scenarios.has(id)) notCompared.push({ id, reason: 'only-after', before: null, after: scenarioSide(tally) })
  }

  const tests = pairs.map((pair) => fisherExact(verdicts(pair.after), verdicts(pair.before)))
  const corrections = {
    worse: taroneCorrection(tests.map((t) => t.minimumLess), SCENARIO_ALPHA),
    better: taroneCorrection(tests.map((t) => t.minimumGreater), SCENARIO_ALPHA),
  }
  const compared = pairs.map((pair, index): ComparedScenario => {
    const { less: pWorse, greater: pBetter } = tests[index]!
    const group = atMost(pWorse, corrections.worse.threshold) ? 'worse' : atMost(pBetter, corrections.better.threshold) ? 'better' : 'same'
    return {
      ...pair,
      change: pair.after.rate! - pair.before.rate!,
      pWorse,
      pBetter,
      group,
      possible: group !== 'same' ? null : atMost(pWorse, POSSIBLE_ALPHA) ? 'regression' : atMost(pBetter, POSSIBLE_ALPHA) ? 'improvement' : null,
      moreWithoutVerdict: moreWithoutVerdict(pair.before, pair.after),
    }
  })
  return { compared, notCompared, corrections }
}


function verdicts(side: ScenarioSide): Counts {
  return { passed: side.passed, total: side.judged }
}

/** More attempts left without a verdict is itself a signal, and can flatter the pass rate (stats.md §1). */
function moreWithoutVerdict(before: ScenarioSide, after: ScenarioSide): { p: number } | null {
  const without = (side: ScenarioSide): Counts => ({ passed: side.attempts - side.judged, total: side.attempts })
  const { greater } = fisherExact(without(after), without(before))
  return atMost(greater, POSSIBLE_ALPHA) ? { p: greater } : null
}
