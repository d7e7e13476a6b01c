import { scenarioContentFingerprint, scenarioFingerprint } from '../records/scenario/scenario.ts'
import { atMost, type Counts } from '../base/stats/counts.ts'
import { fisherExact } from '../base/stats/exact-tests.ts'
import type { NotComparedScenario, ScenarioSide } from './comparison.ts'
import { POSSIBLE_ALPHA } from './decide.ts'
import { scenarioSide, type ListedScenario, type RunSums } from './run-sums.ts'

export interface ScenarioPair {
  /** The pull request's id. */
  id: string
  /** The baseline's id when the scenario was renamed (matched by content); null otherwise. */
  renamedFrom: string | null
  before: ScenarioSide
  after: ScenarioSide
}

export interface ScenarioGroups {
  /** Played by both runs, unchanged (under the same id or renamed), with attempts the statistics count on both sides. */
  pairs: ScenarioPair[]
  notCompared: NotComparedScenario[]
}

/**
 * Sorts every scenario of either run into compared or not compared (and why). A scenario is the same
 * scenario when its content is (scenario.ts: instructions, script, claims, checks; not its tags,
 * description or file): under the same id, or under a new id — renamed — when exactly one scenario
 * the baseline lost and one the pull request gained share it. A baseline scenario the pull request
 * lists as `retired` is retired; one that merely disappeared is `only-before`. decide.ts tests the pairs.
 */
export function groupScenarios(before: RunSums, after: RunSums, retired: ReadonlyMap<string, string> = new Map()): ScenarioGroups {
  const notCompared: NotComparedScenario[] = []
  const pairs: ScenarioPair[] = []
  const lost: ListedScenario[] = []
  for (const [id, tally] of before.scenarios) {
    const other = after.scenarios.get(id)
    if (!other) {
      lost.push(tally)
      continue
    }
    const beforeSide = scenarioSide(tally)
    const afterSide = scenarioSide(other)
    if (scenarioFingerprint(tally.scenario) !== scenarioFingerprint(other.scenario)) notCompared.push({ id, reason: 'edited', before: beforeSide, after: afterSide })
    else pairOrBlind(id, null, beforeSide, afterSide, pairs, notCompared)
  }
  const gained = [...after.scenarios.values()].filter((tally) => !before.scenarios.has(tally.id))
  const renamed = matchByContent(lost, gained)
  for (const tally of lost) {
    const to = renamed.get(tally.id)
    if (to) pairOrBlind(to.id, tally.id, scenarioSide(tally), scenarioSide(to), pairs, notCompared)
    else if (retired.has(tally.id)) notCompared.push({ id: tally.id, reason: 'retired', before: scenarioSide(tally), after: null, retired: retired.get(tally.id)! })
    else notCompared.push({ id: tally.id, reason: 'only-before', before: scenarioSide(tally), after: null })
  }
  const renamedTo = new Set([...renamed.values()].map((tally) => tally.id))
  for (const tally of gained) if (!renamedTo.has(tally.id)) notCompared.push({ id: tally.id, reason: 'only-after', before: null, after: scenarioSide(tally) })
  return { pairs, notCompared }
}

function pairOrBlind(id: string, renamedFrom: string | null, before: ScenarioSide, after: ScenarioSide, pairs: ScenarioPair[], notCompared: NotComparedScenario[]): void {
  if (before.judged === 0 || after.judged === 0) notCompared.push({ id, reason: 'no-verdict', before, after, ...(renamedFrom ? { renamedFrom } : {}) })
  else pairs.push({ id, renamedFrom, before, after })
}

/** Baseline scenarios gone from the pull request, matched to new ones of the same content; only one-to-one matches count. */
function matchByContent(lost: readonly ListedScenario[], gained: readonly ListedScenario[]): Map<string, ListedScenario> {
  const byContent = (list: readonly ListedScenario[]) => {
    const map = new Map<string, ListedScenario[]>()
    for (const tally of list) {
      const key = scenarioContentFingerprint(tally.scenario)
      map.set(key, [...(map.get(key) ?? []), tally])
    }
    return map
  }
  const from = byContent(lost)
  const to = byContent(gained)
  const matched = new Map<string, ListedScenario>()
  for (const [key, olds] of from) {
    const news = to.get(key)
    if (olds.length === 1 && news?.length === 1) matched.set(olds[0]!.id, news[0]!)
  }
  return matched
}

export function verdicts(side: ScenarioSide): Counts {
  return { passed: side.passed, total: side.judged }
}

/** The attempts the judge or a check decided: passed or failed, without the agent errors (the collapse rule's baseline). */
export function decidedOf(side: ScenarioSide): Counts {
  return { passed: side.passed, total: side.judged - side.agentErrors }
}

/** More attempts left without a verdict is itself a signal, and can flatter the pass rate (stats.md §1). */
export function moreWithoutVerdict(before: ScenarioSide, after: ScenarioSide): { p: number } | null {
  const without = (side: ScenarioSide): Counts => ({ passed: side.attempts - side.judged, total: side.attempts })
  const { greater } = fisherExact(without(after), without(before))
  return atMost(greater, POSSIBLE_ALPHA) ? { p: greater } : null
}
