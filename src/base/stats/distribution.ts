/**
 * A distribution over consecutive integers: probabilities[i] is P(X = min + i). Exact conditional tests
 * (Fisher's, and the stratified test built from it) all end with the same question — how much
 * probability lies at or beyond the observed value — so they share this shape and its tail sums.
 */
export interface Distribution {
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

export function tails(distribution: Distribution, observed: number): TailProbabilities {
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
