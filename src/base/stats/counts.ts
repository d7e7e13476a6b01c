/** Passes out of attempts with a verdict (passed or failed); attempts without one are never in `total`. */
export interface Counts {
  passed: number
  total: number
}

/**
 * p ≤ α, allowing for rounding: 3/3 → 0/3 has one-sided p of exactly 1/20, which floating point gives
 * as 0.05000000000000001. The same relative tolerance R uses for ties in exact tests.
 */
export function atMost(p: number, alpha: number): boolean {
  return p <= alpha * (1 + 1e-7)
}
