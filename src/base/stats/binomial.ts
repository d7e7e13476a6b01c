import { logChoose } from './hypergeometric.ts'

/** P(X ≥ at) for X ~ Binomial(n, p): how surprising a count of at least `at` is at the rate p. */
export function binomialAtLeast(at: number, n: number, p: number): number {
  let total = 0
  for (let x = Math.max(0, at); x <= n; x++) total += Math.exp(logChoose(n, x) + x * Math.log(p) + (n - x) * Math.log1p(-p))
  return Math.min(1, total)
}
