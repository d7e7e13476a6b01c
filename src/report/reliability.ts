/**
 * The few statistics a single run's report needs. These follow notes/stats.md; once src/stats/ has
 * its own Wilson interval and pass^k, this file should defer to them (kept here so the report did not
 * wait on that work).
 */

export interface Interval {
  low: number
  high: number
}

const Z95 = 1.959963984540054

/** Wilson score interval for `passes` of `n` (95% by default); null when there is nothing to bound. */
export function wilsonInterval(passes: number, n: number, z = Z95): Interval | null {
  if (n <= 0) return null
  const p = passes / n
  const z2 = z * z
  const centre = p + z2 / (2 * n)
  const spread = z * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n))
  const denominator = 1 + z2 / n
  return { low: Math.max(0, (centre - spread) / denominator), high: Math.min(1, (centre + spread) / denominator) }
}

/** C(c, k) / C(n, k), computed as a product so it never overflows: the chance k draws all pass. */
export function passHatKForScenario(passes: number, n: number, k: number): number {
  if (k > n) throw new RangeError(`pass^${k} needs at least ${k} attempts, got ${n}`)
  let p = 1
  for (let i = 0; i < k; i++) p *= (passes - i) / (n - i)
  return Math.max(0, p)
}

export interface PassHatK {
  k: number
  value: number
  /** Scenarios averaged: those with at least k graded attempts. */
  scenarios: number
}

/**
 * τ-bench's unbiased pass^k averaged over scenarios, for k = 1…the smallest graded count. Scenarios
 * without any verdict are left out, as they are of the pass rate.
 */
export function passHatK(scenarios: readonly { passes: number; n: number }[]): PassHatK[] {
  const graded = scenarios.filter((s) => s.n > 0)
  if (graded.length === 0) return []
  const smallest = Math.min(...graded.map((s) => s.n))
  const out: PassHatK[] = []
  for (let k = 1; k <= smallest; k++) {
    const sum = graded.reduce((total, s) => total + passHatKForScenario(s.passes, s.n, k), 0)
    out.push({ k, value: sum / graded.length, scenarios: graded.length })
  }
  return out
}
