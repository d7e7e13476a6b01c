import { choose, stratifiedPermutationTest, type Stratum } from '../base/stats/permutation.ts'
import { atMost } from '../base/stats/counts.ts'
import { quantile } from '../base/stats/quantile.ts'
import { taroneCorrection, type TaroneCorrection } from '../base/stats/tarone.ts'
import type { AttemptDigest, RunTally } from '../records/tally/run-tally.ts'

/**
 * A measure taken once per attempt (its mean answer time, the agent's tokens, its dollars), compared
 * between two runs beyond noise, overall and per scenario. Each attempt gives one value (the answers
 * of one conversation are not independent; its attempts are), compared on the log scale, so the
 * change is a ratio ("3.1 × slower") and a few skewed outliers weigh what they should. The test is a
 * permutation test stratified by scenario (base/stats/permutation.ts): exact for one scenario at the
 * usual k, shuffled or normal over many. Scenarios are each tested too, with Tarone's correction; a
 * change is told only beyond noise AND past MIN_RATIO either way, since CI machines and models
 * differ by a few percent from run to run.
 */
// The budget of 2.5% false "slower" (or "costlier") for an unchanged agent is split between the two
// tests a change can come from, as the pass rates' gate splits its own: the overall test one-sided at
// 1%, the scenarios alone 1.25% family-wise (2.25% at most together). At 2.5% each, the overall test
// alone called an unchanged agent slower 2.7% of the time at k = 5; at 1.25% each, both together 2.5%
// at k = 10 (bench:verdict), too close to the budget.
export const OVERALL_ALPHA = 0.01
export const SCENARIOS_ALPHA = 0.0125
/** Changes smaller than this (×1.1 or ÷1.1) are never called, whatever the p. */
export const MIN_RATIO = 1.1

export interface MeasureSide {
  /** Attempts that gave a value. */
  attempts: number
  /** Of the attempts' values. */
  median: number | null
  p90: number | null
}

export interface MeasureChange {
  before: MeasureSide
  after: MeasureSide
  /** Geometric mean after ÷ before (scenario-weighted overall); null without attempts on a side. */
  ratio: number | null
  /** One-sided p of a rise (slower, costlier) and of a fall. */
  pHigher: number
  pLower: number
  change: 'higher' | 'lower' | null
}

export interface ScenarioMeasure extends MeasureChange {
  id: string
}

export interface Measured {
  overall: MeasureChange & {
    /** An approximate 95% interval for the ratio (normal on the log scale, per scenario variances). */
    interval: { lower: number; upper: number } | null
    /**
     * Whether the overall test could reach its level at all with these attempts: at least
     * 1 / OVERALL_ALPHA ways to relabel them within their scenarios. False with too few attempts
     * (one scenario at k = 2 or 3), where "within noise" would claim what the test cannot see.
     */
    couldTell: boolean
  }
  /** Only the scenarios that changed beyond noise, most certain first. */
  scenarios: ScenarioMeasure[]
  corrections: { higher: TaroneCorrection; lower: TaroneCorrection }
}

export interface MeasureOf {
  /** The attempt's value, or null when it gives none (an agent error's time, an attempt without a price). */
  value: (attempt: AttemptDigest) => number | null
  /** Values below this are taken as it on the log scale (a zero has no logarithm). */
  floor: number
}

const mean = (values: readonly number[]) => values.reduce((t, v) => t + v, 0) / values.length


function side(values: readonly number[]): MeasureSide {
  return { attempts: values.length, median: quantile(values, 0.5), p90: quantile(values, 0.9) }
}

/**
 * What a change must also pass to be told, beyond the test: a difference of the medians that matters
 * in practice (`minDifference`, in the measure's unit: 50 ms per answer is not 2 ms), and a ratio
 * past what the default branch's own runs moved by from one to the next (`drift`), since attempts of
 * one run share its machine and network and the run is what drifts.
 */
export interface PracticalGuard {
  minDifference?: number
  drift?: number
}

function changeOf(ratio: number | null, pHigher: number, pLower: number, threshold: { higher: number; lower: number }, medians: { before: number | null; after: number | null }, guard: PracticalGuard): MeasureChange['change'] {
  if (ratio === null) return null
  const differs = medians.before !== null && medians.after !== null && Math.abs(medians.after - medians.before) >= (guard.minDifference ?? 0)
  if (!differs) return null
  const past = Math.max(MIN_RATIO, guard.drift ?? 1)
  if (atMost(pHigher, threshold.higher) && ratio >= past) return 'higher'
  if (atMost(pLower, threshold.lower) && ratio <= 1 / past) return 'lower'
  return null
}

/** `ids`: the scenarios both runs played alike. */
export function measureChanges(before: RunTally, after: RunTally, ids: readonly string[], measure: MeasureOf, guard: PracticalGuard = {}): Measured {
  const valuesOf = (run: RunTally, id: string) => (run.scenarios.get(id)?.attempts ?? []).map(measure.value).filter((v): v is number => v !== null && Number.isFinite(v))
  const pairs = ids.map((id) => ({ id, before: valuesOf(before, id), after: valuesOf(after, id) }))
  const usable = pairs.filter((p) => p.before.length > 0 && p.after.length > 0)
  const log = (value: number) => Math.log(Math.max(value, measure.floor))
  const strata: Stratum[] = usable.map((p) => ({ before: p.before.map(log), after: p.after.map(log) }))
  const differences = strata.map((s) => mean(s.after) - mean(s.before))
  // A run's drift moves every attempt of it alike, so where the default branch's runs say the runs
  // drift, one scenario is tested against the run's own shift (its ratio over the overall ratio):
  // held against the bound alone, the noisiest of 20 scenarios carried a shift near it past, 4.7%
  // false "slower" at k = 10 under ±30% drift. It must still pass the bound itself (changeOf).
  const runShift = guard.drift !== undefined && guard.drift > 1 && differences.length > 1 ? mean(differences) : 0
  const tests = strata.map((s) => stratifiedPermutationTest(moved([s], -runShift)))
  const correction = taroneCorrection(tests.map((t) => t.minimumP), SCENARIOS_ALPHA)
  const corrections = { higher: correction, lower: correction }
  const scenarios = usable
    .map((p, i): ScenarioMeasure => {
      const ratio = Math.exp(differences[i]!)
      const { pGreater, pLess } = tests[i]!
      const [was, now] = [side(p.before), side(p.after)]
      return { id: p.id, before: was, after: now, ratio, pHigher: pGreater, pLower: pLess, change: changeOf(ratio, pGreater, pLess, { higher: correction.threshold, lower: correction.threshold }, { before: was.median, after: now.median }, guard) }
    })
    .filter((s) => s.change !== null)
    .sort((x, y) => Math.min(x.pHigher, x.pLower) - Math.min(y.pHigher, y.pLower))
  const overallTest = overallBeyondDrift(strata, guard.drift)
  const ratio = differences.length === 0 ? null : Math.exp(mean(differences))
  const [was, now] = [side(pairs.flatMap((p) => p.before)), side(pairs.flatMap((p) => p.after))]
  return {
    overall: {
      before: was,
      after: now,
      ratio,
      interval: ratioInterval(strata),
      couldTell: strata.length > 0 && strata.reduce((ways, st) => ways * choose(st.before.length + st.after.length, st.after.length), 1) >= 1 / OVERALL_ALPHA,
      pHigher: overallTest.pGreater,
      pLower: overallTest.pLess,
      change: changeOf(ratio, overallTest.pGreater, overallTest.pLess, { higher: OVERALL_ALPHA, lower: OVERALL_ALPHA }, { before: was.median, after: now.median }, guard),
    },
    scenarios,
    corrections,
  }
}

/**
 * The overall test of a rise and of a fall, each beyond the drift when one is known: the after run's
 * values moved back by the bound before testing a rise (forward before a fall), so a change is told
 * only when it is significantly past what drift alone explains in 99 pairs of runs in 100. Holding
 * just the point estimate against the bound let a shift near it through whenever the noise added a
 * little (bench/speed.ts).
 */
function overallBeyondDrift(strata: readonly Stratum[], drift: number | undefined): { pGreater: number; pLess: number } {
  if (drift === undefined || drift <= 1) return stratifiedPermutationTest(strata)
  const by = Math.log(drift)
  return { pGreater: stratifiedPermutationTest(moved(strata, -by)).pGreater, pLess: stratifiedPermutationTest(moved(strata, by)).pLess }
}

const moved = (strata: readonly Stratum[], shift: number): Stratum[] => strata.map((s) => ({ before: s.before, after: s.after.map((v) => v + shift) }))

function ratioInterval(strata: readonly Stratum[]): Measured['overall']['interval'] {
  if (strata.length === 0) return null
  const variance = (values: readonly number[]) => (values.length < 2 ? 0 : values.reduce((t, v) => t + (v - mean(values)) ** 2, 0) / (values.length - 1))
  const d = mean(strata.map((s) => mean(s.after) - mean(s.before)))
  const v = strata.reduce((t, s) => t + variance(s.after) / s.after.length + variance(s.before) / s.before.length, 0) / strata.length ** 2
  const half = 1.959963984540054 * Math.sqrt(v)
  return { lower: Math.exp(d - half), upper: Math.exp(d + half) }
}

/** What rose significantly by at least `percent`: overall, and the scenarios that did alone. */
export function risenPast(measured: Measured, percent: number): { overall: boolean; scenarios: ScenarioMeasure[] } {
  const limit = 1 + percent / 100
  const past = (c: MeasureChange) => c.change === 'higher' && c.ratio !== null && c.ratio >= limit
  return { overall: past(measured.overall), scenarios: measured.scenarios.filter(past) }
}
