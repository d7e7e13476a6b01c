import type { RunManifest } from '../journal/records.ts'
import { atMost } from '../stats/counts.ts'
import { flaggableScenarioDrop, minimumDetectableDrop } from '../stats/detectable.ts'
import { newcombeInterval } from '../stats/intervals.ts'
import { stratifiedExactTest } from '../stats/stratified.ts'
import {
  COMPARISON_FORMAT,
  type ComparedScenario,
  type Comparison,
  type Direction,
  type NotComparedScenario,
  type OverallChange,
  type RunInfo,
  type Sensitivity,
} from './comparison.ts'
import { groupScenarios, SCENARIO_ALPHA } from './scenario-groups.ts'
import { runSums } from './run-sums.ts'
import { buildTiles } from './tiles.ts'
import { comparisonWarnings } from './warnings.ts'
import type { RunTally } from '../tally/run-tally.ts'

/** One-sided level of the overall stratified test: Worse or Better at p ≤ 0.025 (two-sided 0.05). */
export const OVERALL_ALPHA = 0.025

export interface CompareOptions {
  /** The moment of comparing, for the baseline's age. */
  now: Date
  /** A baseline older than this many days is warned about. Default 7. */
  baselineMaxAgeDays?: number
}

/**
 * Compares the run after a change with the run before it, from their tallies: the attempts were
 * counted as they were read, so two runs of any size compare in the memory of their counts. Pure,
 * and linear in the number of scenarios and answers (the stratified test adds a convolution over the
 * compared scenarios).
 */
export function compareRuns(before: RunTally, after: RunTally, options: CompareOptions): Comparison {
  const beforeTally = runSums(before)
  const afterTally = runSums(after)
  const { compared, notCompared, corrections } = groupScenarios(beforeTally, afterTally)
  const overall = overallChange(compared)
  const tiles = buildTiles(beforeTally, afterTally, overall.direction)
  const inGroup = (group: ComparedScenario['group']) => compared.filter((s) => s.group === group)
  const worse = inGroup('worse').sort((x, y) => x.pWorse - y.pWorse || byId(x, y))
  const better = inGroup('better').sort((x, y) => x.pBetter - y.pBetter || byId(x, y))
  return {
    format: COMPARISON_FORMAT,
    before: runInfo(before.manifest, beforeTally.attempts),
    after: runInfo(after.manifest, afterTally.attempts),
    verdict: verdict(overall.direction, worse.length, better.length),
    overall,
    tiles,
    scenarios: { worse, better, same: inGroup('same').sort(bySameOrder), notCompared: notCompared.sort(byReason) },
    corrections,
    sensitivity: sensitivity(before.manifest, after.manifest, compared, overall),
    warnings: comparisonWarnings({
      before: { manifest: before.manifest, tally: beforeTally },
      after: { manifest: after.manifest, tally: afterTally },
      notCompared,
      overall,
      tiles,
      now: options.now,
      baselineMaxAgeDays: options.baselineMaxAgeDays ?? 7,
    }),
  }
}

/** Worse wins: a pull request that breaks one scenario should not pass because another got better. */
function verdict(overall: Direction, worseScenarios: number, betterScenarios: number): Direction {
  if (overall === 'worse' || worseScenarios > 0) return 'worse'
  if (overall === 'better' || betterScenarios > 0) return 'better'
  return 'within-noise'
}

function overallChange(compared: readonly ComparedScenario[]): OverallChange {
  const test = stratifiedExactTest(compared.map((s) => ({ first: { passed: s.after.passed, total: s.after.judged }, second: { passed: s.before.passed, total: s.before.judged } })))
  const side = (pick: (s: ComparedScenario) => ComparedScenario['before']) => {
    let rateSum = 0
    let passed = 0
    let judged = 0
    for (const s of compared) {
      const counts = pick(s)
      rateSum += counts.rate!
      passed += counts.passed
      judged += counts.judged
    }
    return { rate: compared.length === 0 ? null : rateSum / compared.length, passed, judged }
  }
  const beforeSide = side((s) => s.before)
  const afterSide = side((s) => s.after)
  const measured = beforeSide.rate !== null && afterSide.rate !== null
  return {
    scenarios: compared.length,
    before: beforeSide,
    after: afterSide,
    change: measured ? afterSide.rate! - beforeSide.rate! : null,
    // Newcombe on the scenario-averaged rates with the verdict counts as n: the interval is centred
    // on the change we report, and equals Newcombe on pooled counts when every scenario has equal n.
    interval: measured ? newcombeInterval({ rate: afterSide.rate!, total: afterSide.judged }, { rate: beforeSide.rate!, total: beforeSide.judged }) : null,
    pWorse: test.less,
    pBetter: test.greater,
    pTwoSided: test.twoSided,
    direction: atMost(test.less, OVERALL_ALPHA) ? 'worse' : atMost(test.greater, OVERALL_ALPHA) ? 'better' : 'within-noise',
  }
}

function sensitivity(before: RunManifest, after: RunManifest, compared: readonly ComparedScenario[], overall: OverallChange): Sensitivity {
  const k = Math.min(before.settings.k, after.settings.k)
  const attemptsPerRun = Math.min(overall.before.judged, overall.after.judged)
  return {
    attemptsPerScenario: k,
    attemptsPerRun,
    baselineRate: overall.before.rate,
    detectableDrop: overall.before.rate === null || compared.length === 0 ? null : minimumDetectableDrop(overall.before.rate, attemptsPerRun),
    flaggableScenarioDrop: flaggableScenarioDrop(k, SCENARIO_ALPHA),
  }
}

function runInfo(manifest: RunManifest, attempts: number): RunInfo {
  return {
    id: manifest.id,
    agent: manifest.agent.name,
    agentVersion: manifest.agent.version,
    userModel: manifest.models.user,
    judgeModel: manifest.models.judge,
    startedAt: manifest.startedAt,
    finishedAt: manifest.finishedAt,
    state: manifest.state,
    commit: manifest.ci?.commit ?? null,
    branch: manifest.ci?.branch ?? null,
    pullRequest: manifest.ci?.pullRequest ?? null,
    k: manifest.settings.k,
    scenarios: manifest.scenarios.length,
    attempts,
  }
}

const byId = (x: { id: string }, y: { id: string }) => (x.id < y.id ? -1 : x.id > y.id ? 1 : 0)

/** Possible regressions first, then possible improvements, then the rest by name. */
function bySameOrder(x: ComparedScenario, y: ComparedScenario): number {
  const rank = (s: ComparedScenario) => (s.possible === 'regression' ? 0 : s.possible === 'improvement' ? 1 : 2)
  return rank(x) - rank(y) || (rank(x) === 0 ? x.pWorse - y.pWorse : rank(x) === 1 ? x.pBetter - y.pBetter : 0) || byId(x, y)
}

const REASON_ORDER: readonly NotComparedScenario['reason'][] = ['edited', 'no-verdict', 'only-before', 'only-after']
function byReason(x: NotComparedScenario, y: NotComparedScenario): number {
  return REASON_ORDER.indexOf(x.reason) - REASON_ORDER.indexOf(y.reason) || byId(x, y)
}
