/** z for a two-sided 95% interval: Φ⁻¹(0.975). */
export const Z_95 = 1.959963984540054

export interface Interval {
  lower: number
  upper: number
}

/**
 * Wilson's score interval for a proportion. With no attempts nothing is known, so it spans [0, 1].
 * The limits at 0/n and n/n are exactly 0 and 1 (the formula gives them only up to rounding).
 */
export function wilsonInterval(passed: number, total: number, z: number = Z_95): Interval {
  if (total === 0) return { lower: 0, upper: 1 }
  const { lower, upper } = wilsonForRate(passed / total, total, z)
  return { lower: passed === 0 ? 0 : lower, upper: passed === total ? 1 : upper }
}

/** A rate over `total` attempts; the rate may be a mean of scenario rates rather than passes/total. */
export interface Proportion {
  rate: number
  total: number
}

/**
 * Newcombe's hybrid-score interval (1998, method 10) for first.rate − second.rate, built from each
 * group's Wilson limits.
 */
export function newcombeInterval(first: Proportion, second: Proportion, z: number = Z_95): Interval {
  const a = wilsonForRate(first.rate, first.total, z)
  const b = wilsonForRate(second.rate, second.total, z)
  const difference = first.rate - second.rate
  return {
    lower: difference - Math.hypot(first.rate - a.lower, b.upper - second.rate),
    upper: difference + Math.hypot(a.upper - first.rate, second.rate - b.lower),
  }
}

function wilsonForRate(rate: number, total: number, z: number): Interval {
  if (total === 0) return { lower: 0, upper: 1 }
  const z2 = z * z
  const centre = rate + z2 / (2 * total)
  const halfWidth = z * Math.sqrt((rate * (1 - rate)) / total + z2 / (4 * total * total))
  const scale = 1 + z2 / total
  return { lower: Math.max(0, (centre - halfWidth) / scale), upper: Math.min(1, (centre + halfWidth) / scale) }
}
