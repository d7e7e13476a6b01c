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

export function pointMass(value: number): Distribution {
  return { min: value, probabilities: Float64Array.of(1) }
}

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

/** The distribution of X + Y for independent X and Y. */
export function convolve(x: Distribution, y: Distribution): Distribution {
  if (y.probabilities.length === 1) return { min: x.min + y.min, probabilities: x.probabilities.map((p) => p * y.probabilities[0]!) }
  if (x.probabilities.length === 1) return convolve(y, x)
  const result = new Float64Array(x.probabilities.length + y.probabilities.length - 1)
  for (let i = 0; i < x.probabilities.length; i++) {
    const px = x.probabilities[i]!
    if (px === 0) continue
    for (let j = 0; j < y.probabilities.length; j++) result[i + j]! += px * y.probabilities[j]!
  }
  return trimZeros({ min: x.min + y.min, probabilities: result })
}

/** Drops leading and trailing values that underflowed to 0, so long convolutions stay as small as the mass allows. */
function trimZeros(distribution: Distribution): Distribution {
  const { probabilities } = distribution
  let start = 0
  let end = probabilities.length
  while (start < end - 1 && probabilities[start] === 0) start++
  while (end - 1 > start && probabilities[end - 1] === 0) end--
  if (start === 0 && end === probabilities.length) return distribution
  return { min: distribution.min + start, probabilities: probabilities.slice(start, end) }
}
