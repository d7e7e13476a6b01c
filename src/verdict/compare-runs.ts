import type { RunManifest } from '../records/journal/records.ts'
import { attemptCeiling, plannedAttempts } from '../records/journal/adaptive-record.ts'
import { detectableDrop, flaggableScenarioDrop } from '../base/stats/detectable.ts'
import type { TaroneCorrection } from '../base/stats/tarone.ts'
import { COMPARISON_FORMAT, type ComparedScenario, type Comparison, type MovedClaim, type NotComparedScenario, type RunInfo, type Sensitivity } from './comparison.ts'
import { verdictCoverage } from './coverage.ts'
import { decide, OVERALL_Z, SCENARIO_ALPHA, type OverallChange } from './decide.ts'
import { judgeChange } from './judge-change.ts'
import { decidedOf, groupScenarios, moreWithoutVerdict, verdicts, type ScenarioPair } from './scenario-groups.ts'
import { pooledJudgeNoise, runSums } from './run-sums.ts'
import { strictComparison, withHidden } from './counted-against.ts'
import { userErrorShift } from './user-error-shift.ts'
import { scenarioChanges } from './scenario-changes.ts'
import { buildTiles } from './tiles.ts'
import { comparisonWarnings } from './warnings.ts'
import { toolUseChanges } from './tool-use.ts'
import { firstTokenChanges, speedChanges } from './speed.ts'
import { costChanges } from './cost.ts'
import { adaptiveSummary } from './adaptive-summary.ts'
import type { ClaimHolding, RunTally, ScenarioTally } from '../records/tally/run-tally.ts'

export { OVERALL_ALPHA } from './decide.ts'

/** A baseline older than this many days is warned about, unless the caller says otherwise. */
export const BASELINE_MAX_AGE_DAYS = 7

export interface CompareRunsOptions {
  /** The moment of comparing, for the baseline's age. */
  now: Date
  /** A baseline older than this many days is warned about. Default 7. */
  maxAgeDays?: number
  /** A speed change smaller than this per answer is not told (speed.ts); default 0.05 s. */
  minSpeedChangeSeconds?: number
  /** The median answer time of each of the default branch's recent runs: a speed change is told only past their drift. */
  speedHistory?: readonly (number | null)[]
}

/**
 * Compares the run after a change with the run before it, from their tallies: the attempts were
 * counted as they were read, so two runs of any size compare in the memory of their counts. Pure,
 * and linear in the number of scenarios and answers (the stratified test adds a convolution over the
 * compared scenarios). The verdict itself is decide()'s, on the counts alone.
 */
export function compareRuns(before: RunTally, after: RunTally, options: CompareRunsOptions): Comparison {
  const beforeTally = runSums(before)
  const afterTally = runSums(after)
  const retired = new Map((after.manifest.retired ?? []).map((r) => [r.id, r.reason]))
  const { pairs, notCompared } = groupScenarios(beforeTally, afterTally, retired)
  const tallies = (pair: ScenarioPair) => ({ was: before.scenarios.get(pair.renamedFrom ?? pair.id)!, now: after.scenarios.get(pair.id)! })
  // Judge-unstable on both runs' attempts pooled: a broken agent spreads them apart, a noisy judge does not.
  const pooled = pairs.map((pair) => pooledJudgeNoise(tallies(pair).was, tallies(pair).now))
  const decision = decide(pairs.map((pair, index) => ({ before: verdicts(pair.before), after: verdicts(pair.after), judgeUnstable: pooled[index]?.unstable ?? false, beforeDecided: decidedOf(pair.before) })))
  const { overall, corrections } = decision
  const compared = pairs.map((pair, index): ComparedScenario => ({
    ...pair,
    change: pair.after.rate! - pair.before.rate!,
    ...decision.scenarios[index]!,
    pooledJudge: pooled[index] ? { judgeNoise: pooled[index].judgeNoise, agentFlakiness: pooled[index].agentFlakiness } : null,
    moreWithoutVerdict: moreWithoutVerdict(pair.before, pair.after),
    moved: movedClaims(tallies(pair).was, tallies(pair).now, pair.after.rate! - pair.before.rate!),
  }))
  const comparedIds = compared.map((s) => s.id)
  const speedOptions = { ...(options.minSpeedChangeSeconds === undefined ? {} : { minSeconds: options.minSpeedChangeSeconds }), ...(options.speedHistory ? { history: options.speedHistory } : {}) }
  const speed = speedChanges(before, after, comparedIds, speedOptions)
  const firstToken = firstTokenChanges(before, after, comparedIds, speedOptions)
  const cost = costChanges(before, after, comparedIds)
  const tiles = buildTiles(beforeTally, afterTally, overall.direction, { speed, firstToken, agentDollars: cost.dollars })
  const inGroup = (group: ComparedScenario['group']) => compared.filter((s) => s.group === group)
  const worse = inGroup('worse').sort((x, y) => x.pWorse - y.pWorse || byId(x, y))
  const better = inGroup('better').sort((x, y) => x.pBetter - y.pBetter || byId(x, y))
  return {
    format: COMPARISON_FORMAT,
    before: runInfo(before.manifest, beforeTally.attempts),
    after: runInfo(after.manifest, afterTally.attempts),
    verdict: decision.verdict,
    overall,
    tiles,
    scenarios: { worse, better, same: inGroup('same').sort(bySameOrder), notCompared: notCompared.sort(byReason) },
    corrections,
    sensitivity: sensitivity(before.manifest, after.manifest, compared, overall, corrections.worse),
    coverage: verdictCoverage(compared, notCompared),
    judgeChange: judgeChange(before.manifest, after.manifest),
    strict: withHidden(strictComparison(compared, notCompared, (id) => plannedAttempts(after.manifest, id), { verdict: decision.verdict, pWorse: overall.pWorse }), worse),
    userErrors: userErrorShift([...compared, ...notCompared.flatMap((s) => (s.reason === 'no-verdict' && s.before && s.after ? [{ id: s.id, before: s.before, after: s.after }] : []))]),
    scenarioChanges: scenarioChanges(compared, notCompared),
    warnings: comparisonWarnings({
      before: { manifest: before.manifest, tally: beforeTally },
      after: { manifest: after.manifest, tally: afterTally },
      notCompared,
      overall,
      tiles,
      now: options.now,
      maxAgeDays: options.maxAgeDays ?? BASELINE_MAX_AGE_DAYS,
    }),
    toolUse: toolUseChanges(before, after, comparedIds),
    speed,
    firstToken,
    cost,
    adaptive: adaptiveSummary(after),
  }
}

function sensitivity(before: RunManifest, after: RunManifest, compared: readonly ComparedScenario[], overall: OverallChange, correction: TaroneCorrection): Sensitivity {
  // An adaptive run's scenarios get up to its ceiling where the comparison is undecided: that is what can register.
  const k = Math.min(attemptCeiling(before.settings), attemptCeiling(after.settings))
  const attemptsPerRun = Math.min(overall.before.judged, overall.after.judged)
  return {
    attemptsPerScenario: k,
    attemptsPerRun,
    baselineRate: overall.before.rate,
    detectableDrop: overall.before.rate === null || compared.length === 0 ? null : detectableDrop(overall.before.rate, attemptsPerRun, OVERALL_Z),
    // Whether a scenario can register at all: alone, with nothing else testable, at the family's α.
    singleScenarioCanRegister: flaggableScenarioDrop(k, SCENARIO_ALPHA) !== null,
    // What it takes here, with the correction this comparison applied (Tarone: α over the testable scenarios).
    scenarioThreshold: correction.threshold,
    flaggableScenarioDrop: flaggableScenarioDrop(k, correction.threshold),
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

const REASON_ORDER: readonly NotComparedScenario['reason'][] = ['edited', 'no-verdict', 'only-before', 'retired', 'only-after']
function byReason(x: NotComparedScenario, y: NotComparedScenario): number {
  return REASON_ORDER.indexOf(x.reason) - REASON_ORDER.indexOf(y.reason) || byId(x, y)
}

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
