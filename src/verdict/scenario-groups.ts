import { scenarioFingerprint } from '../records/scenario/scenario.ts'
import { atMost, type Counts } from '../base/stats/counts.ts'
import { fisherExact } from '../base/stats/fisher.ts'
import type { NotComparedScenario, ScenarioSide } from './comparison.ts'
import { POSSIBLE_ALPHA } from './decide.ts'
import { scenarioSide, type RunSums } from './run-sums.ts'

export interface ScenarioPair {
  id: string
  before: ScenarioSide
  after: ScenarioSide
}

export interface ScenarioGroups {
  /** Played by both runs, unchanged, with attempts the statistics count on both sides. */
  pairs: ScenarioPair[]
  notCompared: NotComparedScenario[]
}

/** Sorts every scenario of either run into compared or not compared (and why). decide.ts tests the pairs. */
export function groupScenarios(before: RunSums, after: RunSums): ScenarioGroups {
  const notCompared: NotComparedScenario[] = []
  const pairs: ScenarioPair[] = []
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
  return { pairs, notCompared }
}

export function verdicts(side: ScenarioSide): Counts {
  return { passed: side.passed, total: side.judged }
}

/** More attempts left without a verdict is itself a signal, and can flatter the pass rate (stats.md §1). */
export function moreWithoutVerdict(before: ScenarioSide, after: ScenarioSide): { p: number } | null {
  const without = (side: ScenarioSide): Counts => ({ passed: side.attempts - side.judged, total: side.attempts })
  const { greater } = fisherExact(without(after), without(before))
  return atMost(greater, POSSIBLE_ALPHA) ? { p: greater } : null
}
