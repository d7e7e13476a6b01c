/**
 * A permutation test for skewed values (answer times), stratified: within each stratum the values of
 * the two groups are exchangeable under the null, so the labels are shuffled within strata only. The
 * statistic is the sum of the second group's values over all strata (on whatever scale the caller
 * gives: logs of times make it a test of the ratio).
 *
 * - One stratum with at most EXACT_LIMIT ways to choose the second group: every way is counted, an
 *   exact test (5 vs 5 attempts: 252 ways, smallest one-sided p 1/252).
 * - Otherwise, shuffles with a seeded generator (so a comparison is repeatable), p = (hits + 1) /
 *   (shuffles + 1), which is a valid p-value; past SHUFFLE_WORK_LIMIT values shuffled in all, the
 *   normal approximation with the permutation distribution's exact mean and variance (a sum over many
 *   strata, where it is accurate).
 */
export interface Stratum {
  before: readonly number[]
  after: readonly number[]
}

export interface PermutationResult {
  /** One-sided: the after group's sum this high or higher by chance; and this low or lower. */
  pGreater: number
  pLess: number
  /** The smallest p this test could give with these group sizes: what Tarone's correction needs. */
  minimumP: number
  method: 'exact' | 'shuffles' | 'normal'
}

export const EXACT_LIMIT = 20_000
export const SHUFFLES = 10_000
export const SHUFFLE_WORK_LIMIT = 20_000_000

/** A small, fast generator (mulberry32): the same seed gives the same shuffles everywhere. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

const constant = (s: Stratum) => {
  const first = s.before[0] ?? s.after[0]
  return s.before.every((v) => v === first) && s.after.every((v) => v === first)
}
const sum = (values: readonly number[]) => values.reduce((total, v) => total + v, 0)
/** Sums that differ only by rounding count as ties. */
const TOLERANCE = 1e-9

export function stratifiedPermutationTest(strata: readonly Stratum[], options: { seed?: number; shuffles?: number } = {}): PermutationResult {
  const used = strata.filter((s) => s.before.length > 0 && s.after.length > 0)
  if (used.length === 0) return { pGreater: 1, pLess: 1, minimumP: 1, method: 'exact' }
  // Every stratum's values alike (an agent answering from a cache; a simulated run): no relabelling
  // changes the statistic, so nothing can register, as exact() says for one stratum, without shuffling.
  if (used.every(constant)) return { pGreater: 1, pLess: 1, minimumP: 1, method: 'exact' }
  const observed = sum(used.map((s) => sum(s.after)))
  if (used.length === 1 && choose(used[0]!.before.length + used[0]!.after.length, used[0]!.after.length) <= EXACT_LIMIT) return exact(used[0]!, observed)
  const shuffles = options.shuffles ?? SHUFFLES
  const work = shuffles * sum(used.map((s) => s.before.length + s.after.length))
  return work <= SHUFFLE_WORK_LIMIT ? shuffled(used, observed, shuffles, options.seed ?? 1) : normal(used, observed)
}

function exact(stratum: Stratum, observed: number): PermutationResult {
  const pooled = [...stratum.before, ...stratum.after]
  // All values alike (an agent answering from a cache): no relabelling differs, nothing can register.
  if (pooled.every((v) => v === pooled[0])) return { pGreater: 1, pLess: 1, minimumP: 1, method: 'exact' }
  const k = stratum.after.length
  let total = 0
  let greater = 0
  let less = 0
  const slack = TOLERANCE * Math.max(1, Math.abs(observed))
  const visit = (start: number, left: number, partial: number) => {
    if (left === 0) {
      total++
      if (partial >= observed - slack) greater++
      if (partial <= observed + slack) less++
      return
    }
    for (let i = start; i <= pooled.length - left; i++) visit(i + 1, left - 1, partial + pooled[i]!)
  }
  visit(0, k, 0)
  return { pGreater: greater / total, pLess: less / total, minimumP: 1 / total, method: 'exact' }
}

function shuffled(strata: readonly Stratum[], observed: number, shuffles: number, seed: number): PermutationResult {
  const random = seededRandom(seed)
  const pools = strata.map((s) => ({ values: [...s.before, ...s.after], k: s.after.length }))
  const slack = TOLERANCE * Math.max(1, Math.abs(observed))
  let greater = 0
  let less = 0
  for (let r = 0; r < shuffles; r++) {
    let total = 0
    for (const pool of pools) {
      const values = pool.values
      // A partial Fisher–Yates shuffle: the first k places are a uniform draw of the after group.
      for (let i = 0; i < pool.k; i++) {
        const j = i + Math.floor(random() * (values.length - i))
        const v = values[j]!
        values[j] = values[i]!
        values[i] = v
        total += v
      }
    }
    if (total >= observed - slack) greater++
    if (total <= observed + slack) less++
  }
  return { pGreater: (greater + 1) / (shuffles + 1), pLess: (less + 1) / (shuffles + 1), minimumP: 1 / (shuffles + 1), method: 'shuffles' }
}

function normal(strata: readonly Stratum[], observed: number): PermutationResult {
  let mean = 0
  let variance = 0
  for (const s of strata) {
    const pooled = [...s.before, ...s.after]
    const n = pooled.length
    const k = s.after.length
    const mu = sum(pooled) / n
    const sigma2 = sum(pooled.map((v) => (v - mu) ** 2)) / n
    mean += k * mu
    if (n > 1) variance += (k * (n - k) * sigma2) / (n - 1)
  }
  if (variance === 0) return { pGreater: 1, pLess: 1, minimumP: 0, method: 'normal' }
  const z = (observed - mean) / Math.sqrt(variance)
  return { pGreater: upperTail(z), pLess: upperTail(-z), minimumP: 0, method: 'normal' }
}

/** P(Z ≥ z) for a standard normal, by the complementary error function (Numerical Recipes' erfc, |error| < 1.2e-7). */
function upperTail(z: number): number {
  const x = z / Math.SQRT2
  const t = 1 / (1 + 0.5 * Math.abs(x))
  const y = t * Math.exp(-x * x - 1.26551223 + t * (1.00002368 + t * (0.37409196 + t * (0.09678418 + t * (-0.18628806 + t * (0.27886807 + t * (-1.13520398 + t * (1.48851587 + t * (-0.82215223 + t * 0.17087277)))))))))
  const erfc = x >= 0 ? y : 2 - y
  return erfc / 2
}

/** C(n, k) as a float; large values only need to compare with EXACT_LIMIT. */
export function choose(n: number, k: number): number {
  let result = 1
  for (let i = 1; i <= k; i++) result = (result * (n - k + i)) / i
  return Math.round(result)
}
