/**
 * How far one run's typical time may stand from another's by drift alone, judged from a few runs of
 * the same code: the attempts of one run share its machine, network and gateway, so the run, not the
 * attempt, is what drifts (issue 35). On the log scale the runs' medians scatter with some σ; two new
 * runs differ by a normal of variance 2σ², and with σ estimated from n runs, the one-sided 99%
 * prediction bound of that difference is t(0.99, n − 1) · s · √2. A change inside it is drift.
 */

/** Student's t, one-sided 0.99 quantiles by degrees of freedom 1–30 (standard tables). */
const T99 = [31.821, 6.965, 4.541, 3.747, 3.365, 3.143, 2.998, 2.896, 2.821, 2.764, 2.718, 2.681, 2.65, 2.624, 2.602, 2.583, 2.567, 2.552, 2.539, 2.528, 2.518, 2.508, 2.5, 2.492, 2.485, 2.479, 2.473, 2.467, 2.462, 2.457]

/** t(0.99, df); past 30 degrees of freedom the value at 30, a little above the normal's 2.326 (the safe side). */
export function studentT99(degreesOfFreedom: number): number {
  if (!Number.isInteger(degreesOfFreedom) || degreesOfFreedom < 1) throw new RangeError(`degrees of freedom: ${degreesOfFreedom}`)
  return T99[Math.min(degreesOfFreedom, T99.length) - 1]!
}

/**
 * The ratio of two runs' typical times that drift alone stays under in 99 of 100 pairs, from the
 * typical times of n ≥ 2 earlier runs; never below the largest ratio the runs themselves showed.
 */
export function driftBound(medians: readonly number[]): number {
  if (medians.length < 2) throw new RangeError('a drift takes two runs or more')
  const logs = medians.map(Math.log)
  const mean = logs.reduce((t, v) => t + v, 0) / logs.length
  const sd = Math.sqrt(logs.reduce((t, v) => t + (v - mean) ** 2, 0) / (logs.length - 1))
  const seen = Math.max(...medians) / Math.min(...medians)
  return Math.max(seen, Math.exp(studentT99(logs.length - 1) * sd * Math.SQRT2))
}
