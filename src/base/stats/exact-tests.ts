import type { Counts } from './counts.ts'

// Exact tests of pass counts: the hypergeometric and binomial tails, Fisher's test and its stratified sum.

/**
 * A distribution over consecutive integers: probabilities[i] is P(X = min + i). Exact conditional tests
 * (Fisher's, and the stratified test built from it) all end with the same question — how much
 * probability lies at or beyond the observed value — so they share this shape and its tail sums.
 */
interface Distribution {
  min: number
  probabilities: Float64Array
}

export interface TailProbabilities {
  /** P(X ≤ observed). */
  less: number
  /** P(X ≥ observed). */
  greater: number
  /** The sum of P(X = t) over every t no more likely than the observed value (R's and scipy's rule). */
  twoSided: number
}

/** R's `relErr`: ties in probability that differ only by rounding still count as "no more likely". */
const TIE_TOLERANCE = 1 + 1e-7

function tails(distribution: Distribution, observed: number): TailProbabilities {
  const { min, probabilities } = distribution
  const index = observed - min
  let less = 0
  let greater = 0
  let twoSided = 0
  const observedProbability = index >= 0 && index < probabilities.length ? probabilities[index]! : 0
  const cutoff = observedProbability * TIE_TOLERANCE
  for (let i = 0; i < probabilities.length; i++) {
    const p = probabilities[i]!
    if (i <= index) less += p
    if (i >= index) greater += p
    if (p <= cutoff) twoSided += p
  }
  return { less: Math.min(1, less), greater: Math.min(1, greater), twoSided: Math.min(1, twoSided) }
}

/**
 * ln(n!) without accumulated rounding: exact products for small n, Stirling's series beyond (its
 * truncation error at n > 20 is below 1e-17), so each value is within a few ulps whatever n is.
 */
export function logFactorial(n: number): number {
  if (!Number.isInteger(n) || n < 0) throw new RangeError(`logFactorial needs a non-negative integer, got ${n}`)
  if (n <= 20) {
    let product = 1
    for (let i = 2; i <= n; i++) product *= i
    return Math.log(product)
  }
  const inverse = 1 / n
  const inverse2 = inverse * inverse
  const series = inverse * (1 / 12 - inverse2 * (1 / 360 - inverse2 * (1 / 1260 - inverse2 / 1680)))
  return n * Math.log(n) - n + 0.5 * Math.log(2 * Math.PI * n) + series
}

function logChoose(n: number, k: number): number {
  return logFactorial(n) - logFactorial(k) - logFactorial(n - k)
}

/**
 * P(X = k) when `draws` items are taken without replacement from `population` items of which
 * `successes` are successes. In a 2×2 table: population = n₁ + n₂, successes = x₁ + x₂, draws = n₁.
 */
export function hypergeometricPmf(k: number, population: number, successes: number, draws: number): number {
  checkArguments(population, successes, draws)
  if (k < Math.max(0, draws - (population - successes)) || k > Math.min(draws, successes)) return 0
  return Math.exp(logChoose(successes, k) + logChoose(population - successes, draws - k) - logChoose(population, draws))
}

function hypergeometric(population: number, successes: number, draws: number): Distribution {
  checkArguments(population, successes, draws)
  const min = Math.max(0, draws - (population - successes))
  const max = Math.min(draws, successes)
  const probabilities = new Float64Array(max - min + 1)
  const logTotal = logChoose(population, draws)
  for (let k = min; k <= max; k++) {
    probabilities[k - min] = Math.exp(logChoose(successes, k) + logChoose(population - successes, draws - k) - logTotal)
  }
  return { min, probabilities }
}

function checkArguments(population: number, successes: number, draws: number): void {
  if (successes > population || draws > population || successes < 0 || draws < 0) {
    throw new RangeError(`no hypergeometric with population ${population}, successes ${successes}, draws ${draws}`)
  }
}

/** P(X ≥ at) for X ~ Binomial(n, p): how surprising a count of at least `at` is at the rate p. */
export function binomialAtLeast(at: number, n: number, p: number): number {
  let total = 0
  for (let x = Math.max(0, at); x <= n; x++) total += Math.exp(logChoose(n, x) + x * Math.log(p) + (n - x) * Math.log1p(-p))
  return Math.min(1, total)
}

export interface FisherResult extends TailProbabilities {
  /** The smallest `less` any table with these margins could give: what Tarone's correction needs. */
  minimumLess: number
  /** The smallest `greater` any table with these margins could give. */
  minimumGreater: number
}

/**
 * Fisher's exact test on [[first.passed, first.failed], [second.passed, second.failed]], as scipy's
 * `fisher_exact` and R's `fisher.test`: `less` is the chance, given the margins, that the first group
 * passes this rarely or more rarely; `greater` this often or more often. In a comparison the first
 * group is the run after the change, so `less` is the p-value for "worse".
 */
export function fisherExact(first: Counts, second: Counts): FisherResult {
  const distribution = hypergeometric(first.total + second.total, first.passed + second.passed, first.total)
  const { probabilities } = distribution
  return {
    ...tails(distribution, first.passed),
    minimumLess: probabilities[0]!,
    minimumGreater: probabilities[probabilities.length - 1]!,
  }
}

/** One scenario's counts in the two runs; in a comparison, first is after the change, second before. */
export interface Stratum {
  first: Counts
  second: Counts
}

export interface StratifiedResult extends TailProbabilities {
  /** T: the first group's passes summed over the strata. */
  observed: number
}

/**
 * The exact stratified test (R's `mantelhaen.test(exact = TRUE)`): under the null hypothesis the
 * attempts of one scenario are exchangeable between the two runs, so each scenario's first-group
 * passes are hypergeometric given its margins, and their sum T has the convolution of those
 * distributions. `less` = P(T ≤ T_obs) is the p-value for "worse". With one stratum this is Fisher's test.
 */
export function stratifiedExactTest(strata: readonly Stratum[]): StratifiedResult {
  let observed = 0
  let min = 0
  const informative: Float64Array[] = []
  for (const { first, second } of strata) {
    observed += first.passed
    const distribution = hypergeometric(first.total + second.total, first.passed + second.passed, first.total)
    min += distribution.min
    // A scenario that passed (or failed) everywhere has one possible value: it shifts T and nothing more.
    if (distribution.probabilities.length > 1) informative.push(distribution.probabilities)
  }
  return { ...tails(convolveAll(min, informative), observed), observed }
}

/**
 * The distribution of a sum of independent variables, each given by its probabilities from 0 up.
 * Two buffers sized for the final support are reused, so 2,000 scenarios allocate nothing per step.
 */
function convolveAll(min: number, parts: readonly Float64Array[]): Distribution {
  const size = parts.reduce((total, part) => total + part.length - 1, 1)
  let current = new Float64Array(size)
  let next = new Float64Array(size)
  current[0] = 1
  let length = 1
  for (const part of parts) {
    const nextLength = length + part.length - 1
    next.fill(0, 0, nextLength)
    for (let i = 0; i < length; i++) {
      const p = current[i]!
      if (p === 0) continue
      for (let j = 0; j < part.length; j++) next[i + j]! += p * part[j]!
    }
    ;[current, next] = [next, current]
    length = nextLength
  }
  return { min, probabilities: current.subarray(0, length) }
}
