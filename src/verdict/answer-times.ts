import type { Direction } from './comparison.ts'
import { median } from '../base/stats/quantile.ts'

/**
 * Whether the agent got slower or faster between two runs, beyond noise: its answer times (or times
 * to first token) are compared with a one-sided Mann–Whitney U test, and a change is called only
 * when the test says so at the same level as the tiles' other tests (p ≤ 0.025 each way) AND the
 * median moved by at least 10%. The second condition is there because CI machines differ: with
 * hundreds of answers the test alone would flag a 2% shift that is the runner, not the agent.
 *
 * The test treats answers as independent, which they are only roughly (answers of one conversation
 * share a context), and uses the normal approximation with a correction for ties; below 5 answers a
 * side nothing is called.
 */
const ALPHA = 0.025
const MIN_RELATIVE_CHANGE = 0.1
const MIN_ANSWERS = 5

export interface TimeChange {
  direction: Direction
  /** One-sided p that the after run is slower, and that it is faster; null when too few answers. */
  pSlower: number | null
  pFaster: number | null
}

export function compareTimes(before: readonly number[], after: readonly number[]): TimeChange {
  if (before.length < MIN_ANSWERS || after.length < MIN_ANSWERS) return { direction: 'within-noise', pSlower: null, pFaster: null }
  const { pGreater, pLess } = mannWhitney(after, before)
  // Both sides have at least MIN_ANSWERS values here, so both medians exist.
  const [was, now] = [median(before)!, median(after)!]
  const shift = now / was - 1
  const slower = pGreater <= ALPHA && (was === 0 ? now > 0 : shift >= MIN_RELATIVE_CHANGE)
  const faster = pLess <= ALPHA && shift <= -MIN_RELATIVE_CHANGE
  return { direction: slower ? 'worse' : faster ? 'better' : 'within-noise', pSlower: pGreater, pFaster: pLess }
}

/** One-sided p-values that `first` tends to be greater (or less) than `second`. */
export function mannWhitney(first: readonly number[], second: readonly number[]): { pGreater: number; pLess: number } {
  const n1 = first.length
  const n2 = second.length
  const n = n1 + n2
  const all = [...first.map((value) => ({ value, first: true })), ...second.map((value) => ({ value, first: false }))].sort((a, b) => a.value - b.value)
  let rankSum = 0
  let tieTerm = 0
  for (let start = 0; start < n; ) {
    let end = start
    while (end + 1 < n && all[end + 1]!.value === all[start]!.value) end++
    const tied = end - start + 1
    const midRank = (start + end) / 2 + 1
    for (let i = start; i <= end; i++) if (all[i]!.first) rankSum += midRank
    tieTerm += tied ** 3 - tied
    start = end + 1
  }
  const u = rankSum - (n1 * (n1 + 1)) / 2
  const mean = (n1 * n2) / 2
  const variance = ((n1 * n2) / 12) * (n + 1 - tieTerm / (n * (n - 1)))
  if (variance <= 0) return { pGreater: 1, pLess: 1 }
  const sd = Math.sqrt(variance)
  // Continuity correction: half a unit of U towards the mean.
  return { pGreater: upperTail((u - mean - 0.5) / sd), pLess: upperTail((mean - u - 0.5) / sd) }
}


/** P(Z ≥ z) for a standard normal Z, from erfc (Numerical Recipes' erfcc: relative error < 1.2e-7). */
export function upperTail(z: number): number {
  const x = z / Math.SQRT2
  const t = 1 / (1 + 0.5 * Math.abs(x))
  const poly = -1.26551223 + t * (1.00002368 + t * (0.37409196 + t * (0.09678418 + t * (-0.18628806 + t * (0.27886807 + t * (-1.13520398 + t * (1.48851587 + t * (-0.82215223 + t * 0.17087277))))))))
  const erfc = t * Math.exp(-x * x + poly)
  return x >= 0 ? erfc / 2 : 1 - erfc / 2
}
