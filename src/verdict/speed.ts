import { stratifiedPermutationTest, type Stratum } from '../base/stats/permutation.ts'
import { atMost } from '../base/stats/counts.ts'
import { taroneCorrection, type TaroneCorrection } from '../base/stats/tarone.ts'
import type { AttemptDigest, RunTally } from '../records/tally/run-tally.ts'

/**
 * Whether the agent answers slower or faster, beyond noise, overall and per scenario. Each attempt
 * gives one value, its mean answer time (the answers of one conversation are not independent; its
 * attempts are), compared on the log scale, so the change is a ratio ("3.1 × slower") and a few slow
 * outliers weigh what they should. The test is a permutation test stratified by scenario
 * (base/stats/permutation.ts): exact for one scenario at the usual k, shuffled or normal over many.
 * Scenarios are each tested too, with Tarone's correction; a change is told only beyond noise AND
 * past MIN_RATIO either way, since CI machines differ by a few percent from run to run.
 */
export const SPEED_ALPHA = 0.025
/** Changes smaller than this (×1.1 or ÷1.1) are never called, whatever the p. */
export const MIN_RATIO = 1.1

export interface SpeedSide {
  /** Attempts with at least one answer, agent errors left out (a timeout is not an answer time). */
  attempts: number
  /** Of the attempts' mean answer times, in seconds. */
  median: number | null
  p90: number | null
}

export interface SpeedChange {
  before: SpeedSide
  after: SpeedSide
  /** Geometric mean after ÷ before (scenario-weighted overall); null without attempts on a side. */
  ratio: number | null
  pSlower: number
  pFaster: number
  change: 'slower' | 'faster' | null
}

export interface ScenarioSpeed extends SpeedChange {
  id: string
}

export interface Speed {
  overall: SpeedChange & {
    /** An approximate 95% interval for the ratio (normal on the log scale, per scenario variances). */
    interval: { lower: number; upper: number } | null
  }
  /** Only the scenarios that changed beyond noise, most certain first. */
  scenarios: ScenarioSpeed[]
  corrections: { slower: TaroneCorrection; faster: TaroneCorrection }
}

function attemptTimes(attempts: readonly AttemptDigest[]): number[] {
  return attempts.filter((a) => a.verdict !== 'agent_error' && a.answers > 0).map((a) => a.agentSeconds / a.answers)
}

const log = (seconds: number) => Math.log(Math.max(seconds, 0.001))
const mean = (values: readonly number[]) => values.reduce((t, v) => t + v, 0) / values.length

function quantile(values: readonly number[], q: number): number | null {
  if (values.length === 0) return null
  const sorted = [...values].sort((a, b) => a - b)
  const at = (sorted.length - 1) * q
  const low = Math.floor(at)
  return sorted[low]! + (sorted[Math.min(low + 1, sorted.length - 1)]! - sorted[low]!) * (at - low)
}

function side(times: readonly number[]): SpeedSide {
  return { attempts: times.length, median: quantile(times, 0.5), p90: quantile(times, 0.9) }
}

function changeOf(ratio: number | null, pSlower: number, pFaster: number, threshold: { slower: number; faster: number }): SpeedChange['change'] {
  if (ratio === null) return null
  if (atMost(pSlower, threshold.slower) && ratio >= MIN_RATIO) return 'slower'
  if (atMost(pFaster, threshold.faster) && ratio <= 1 / MIN_RATIO) return 'faster'
  return null
}

/** `ids`: the scenarios both runs played alike. */
export function speedChanges(before: RunTally, after: RunTally, ids: readonly string[]): Speed {
  const pairs = ids.map((id) => ({ id, before: attemptTimes(before.scenarios.get(id)?.attempts ?? []), after: attemptTimes(after.scenarios.get(id)?.attempts ?? []) }))
  const usable = pairs.filter((p) => p.before.length > 0 && p.after.length > 0)
  const strata: Stratum[] = usable.map((p) => ({ before: p.before.map(log), after: p.after.map(log) }))
  const tests = strata.map((s) => stratifiedPermutationTest([s]))
  const corrections = {
    slower: taroneCorrection(tests.map((t) => t.minimumP), SPEED_ALPHA),
    faster: taroneCorrection(tests.map((t) => t.minimumP), SPEED_ALPHA),
  }
  const differences = strata.map((s) => mean(s.after) - mean(s.before))
  const scenarios = usable
    .map((p, i): ScenarioSpeed => {
      const ratio = Math.exp(differences[i]!)
      const { pGreater, pLess } = tests[i]!
      return { id: p.id, before: side(p.before), after: side(p.after), ratio, pSlower: pGreater, pFaster: pLess, change: changeOf(ratio, pGreater, pLess, { slower: corrections.slower.threshold, faster: corrections.faster.threshold }) }
    })
    .filter((s) => s.change !== null)
    .sort((x, y) => Math.min(x.pSlower, x.pFaster) - Math.min(y.pSlower, y.pFaster))
  const overallTest = stratifiedPermutationTest(strata)
  const ratio = differences.length === 0 ? null : Math.exp(mean(differences))
  return {
    overall: {
      before: side(pairs.flatMap((p) => p.before)),
      after: side(pairs.flatMap((p) => p.after)),
      ratio,
      interval: ratioInterval(strata),
      pSlower: overallTest.pGreater,
      pFaster: overallTest.pLess,
      change: changeOf(ratio, overallTest.pGreater, overallTest.pLess, { slower: SPEED_ALPHA, faster: SPEED_ALPHA }),
    },
    scenarios,
    corrections,
  }
}

function ratioInterval(strata: readonly Stratum[]): Speed['overall']['interval'] {
  if (strata.length === 0) return null
  const variance = (values: readonly number[]) => (values.length < 2 ? 0 : values.reduce((t, v) => t + (v - mean(values)) ** 2, 0) / (values.length - 1))
  const d = mean(strata.map((s) => mean(s.after) - mean(s.before)))
  const v = strata.reduce((t, s) => t + variance(s.after) / s.after.length + variance(s.before) / s.before.length, 0) / strata.length ** 2
  const half = 1.959963984540054 * Math.sqrt(v)
  return { lower: Math.exp(d - half), upper: Math.exp(d + half) }
}

/**
 * `--fail-on-slower PCT`: fails when the agent is slower beyond noise, overall or in a scenario, by
 * at least PCT percent; null when the gate holds.
 */
export function slowerThan(speed: Speed, percent: number): string | null {
  const limit = 1 + percent / 100
  const past = (c: SpeedChange) => c.change === 'slower' && c.ratio !== null && c.ratio >= limit
  const named = speed.scenarios.filter(past)
  if (past(speed.overall)) return `Answers are ${speed.overall.ratio!.toFixed(2)} × slower overall (p = ${speed.overall.pSlower.toPrecision(2)}), past the ${percent}% allowed (fail-on-slower).`
  if (named.length > 0) return `Slower past ${percent}% (fail-on-slower): ${named.map((s) => `${s.id} ${s.ratio!.toFixed(1)} ×`).join(', ')}.`
  return null
}
