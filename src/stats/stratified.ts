import type { Counts } from './counts.ts'
import { convolve, pointMass, tails, type TailProbabilities } from './distribution.ts'
import { hypergeometric } from './hypergeometric.ts'

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
  let distribution = pointMass(0)
  let observed = 0
  for (const { first, second } of strata) {
    observed += first.passed
    distribution = convolve(distribution, hypergeometric(first.total + second.total, first.passed + second.passed, first.total))
  }
  return { ...tails(distribution, observed), observed }
}
