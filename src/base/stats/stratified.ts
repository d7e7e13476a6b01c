import type { Counts } from './counts.ts'
import { tails, type Distribution, type TailProbabilities } from './distribution.ts'
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
