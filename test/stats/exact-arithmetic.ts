// Independent references for the statistics tests: exact integers and rationals with BigInt, and
// brute-force enumeration. Nothing here shares code with src/base/stats.

export function choose(n: number, k: number): bigint {
  if (k < 0 || k > n) return 0n
  let result = 1n
  for (let i = 1; i <= k; i++) result = (result * BigInt(n - k + i)) / BigInt(i)
  return result
}

export function factorial(n: number): bigint {
  let result = 1n
  for (let i = 2; i <= n; i++) result *= BigInt(i)
  return result
}

/** numerator/denominator as a double, correct to about 16 significant digits even for tiny values. */
export function ratio(numerator: bigint, denominator: bigint): number {
  if (numerator === 0n) return 0
  const shift = BigInt(Math.max(0, denominator.toString().length - numerator.toString().length + 20))
  const scaled = (numerator * 10n ** shift) / denominator
  return Number(scaled) / 10 ** Number(shift)
}

/** ln(n!) from the exact integer: its leading digits and its length. */
export function lnFactorial(n: number): number {
  const digits = factorial(n).toString()
  const head = digits.slice(0, 17)
  return Math.log(Number(`${head[0]}.${head.slice(1)}`)) + (digits.length - 1) * Math.LN10
}

/** Fisher's exact p-values for [[x1, n1−x1], [x2, n2−x2]] as exact rationals. */
export function exactFisher(x1: number, n1: number, x2: number, n2: number): { less: number; greater: number; twoSided: number } {
  const total = n1 + n2
  const passes = x1 + x2
  const denominator = choose(total, n1)
  const weight = (i: number) => choose(passes, i) * choose(total - passes, n1 - i)
  const observed = weight(x1)
  let less = 0n
  let greater = 0n
  let twoSided = 0n
  for (let i = 0; i <= n1; i++) {
    const w = weight(i)
    if (i <= x1) less += w
    if (i >= x1) greater += w
    if (w <= observed) twoSided += w
  }
  return { less: ratio(less, denominator), greater: ratio(greater, denominator), twoSided: ratio(twoSided, denominator) }
}

/** The `size`-element subsets of {0 … n−1} as bit masks. */
function subsets(n: number, size: number): number[] {
  const masks: number[] = []
  for (let mask = 0; mask < 1 << n; mask++) {
    let bits = 0
    for (let m = mask; m; m &= m - 1) bits++
    if (bits === size) masks.push(mask)
  }
  return masks
}

/**
 * The stratified permutation test by enumeration: every way of reassigning each scenario's pooled
 * attempts to the two runs (first gets n1 of them), counting the first run's total passes.
 */
export function bruteForceStratified(strata: readonly [x1: number, n1: number, x2: number, n2: number][]): { less: number; greater: number; twoSided: number } {
  // For each stratum: the number of first-run passes for every possible reassignment.
  const perStratum = strata.map(([x1, n1, x2, n2]) => {
    const pooled = n1 + n2
    const passMask = (1 << (x1 + x2)) - 1 // the first x1+x2 attempts are the passes
    return subsets(pooled, n1).map((mask) => {
      let passes = 0
      for (let m = mask & passMask; m; m &= m - 1) passes++
      return passes
    })
  })
  const totals = new Map<number, number>()
  const walk = (index: number, sum: number): void => {
    if (index === perStratum.length) {
      totals.set(sum, (totals.get(sum) ?? 0) + 1)
      return
    }
    for (const passes of perStratum[index]!) walk(index + 1, sum + passes)
  }
  walk(0, 0)
  const observed = strata.reduce((sum, [x1]) => sum + x1, 0)
  const count = [...totals.values()].reduce((a, b) => a + b, 0)
  const observedCount = totals.get(observed) ?? 0
  let less = 0
  let greater = 0
  let twoSided = 0
  for (const [t, c] of totals) {
    if (t <= observed) less += c
    if (t >= observed) greater += c
    if (c <= observedCount) twoSided += c
  }
  return { less: less / count, greater: greater / count, twoSided: twoSided / count }
}

/** The product's seeded generator (mulberry32), so randomised cross-checks repeat exactly. */
export { seededRandom } from '../../src/base/stats/permutation.ts'

/** |actual − expected| within `relative` of the expected value (or 1e-15 absolute, for zeros). */
export function assertClose(actual: number, expected: number, relative = 1e-9, label = ''): void {
  const tolerance = Math.max(relative * Math.abs(expected), 1e-15)
  if (!(Math.abs(actual - expected) <= tolerance)) {
    throw new Error(`${label ? `${label}: ` : ''}expected ${expected}, got ${actual} (difference ${Math.abs(actual - expected)})`)
  }
}
