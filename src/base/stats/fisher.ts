import type { Counts } from './counts.ts'
import { tails, type TailProbabilities } from './distribution.ts'
import { hypergeometric } from './hypergeometric.ts'

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
