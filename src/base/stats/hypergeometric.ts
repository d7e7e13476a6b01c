import type { Distribution } from './distribution.ts'

/**
 * ln(n!) without accumulated rounding: exact products for small n, Stirling's series beyond (its
 * truncation error at n > 20 is below 1e-17), so each value is within a few ulps whatever n is.
 */
export function logFactorial(n: number): number {
  if (!Number.isInteger(n) || n < 0) throw new RangeError(`logFactorial needs a non-negative integer, got ${n}`)
  if (n <= 20) {
    let product = 1
    for (let i = 2; i <= n; i++) product *= i
    return Math.log(product)
  }
  const inverse = 1 / n
  const inverse2 = inverse * inverse
  const series = inverse * (1 / 12 - inverse2 * (1 / 360 - inverse2 * (1 / 1260 - inverse2 / 1680)))
  return n * Math.log(n) - n + 0.5 * Math.log(2 * Math.PI * n) + series
}

export function logChoose(n: number, k: number): number {
  return logFactorial(n) - logFactorial(k) - logFactorial(n - k)
}

/**
 * P(X = k) when `draws` items are taken without replacement from `population` items of which
 * `successes` are successes. In a 2×2 table: population = n₁ + n₂, successes = x₁ + x₂, draws = n₁.
 */
export function hypergeometricPmf(k: number, population: number, successes: number, draws: number): number {
  checkArguments(population, successes, draws)
  if (k < Math.max(0, draws - (population - successes)) || k > Math.min(draws, successes)) return 0
  return Math.exp(logChoose(successes, k) + logChoose(population - successes, draws - k) - logChoose(population, draws))
}

export function hypergeometric(population: number, successes: number, draws: number): Distribution {
  checkArguments(population, successes, draws)
  const min = Math.max(0, draws - (population - successes))
  const max = Math.min(draws, successes)
  const probabilities = new Float64Array(max - min + 1)
  const logTotal = logChoose(population, draws)
  for (let k = min; k <= max; k++) {
    probabilities[k - min] = Math.exp(logChoose(successes, k) + logChoose(population - successes, draws - k) - logTotal)
  }
  return { min, probabilities }
}

function checkArguments(population: number, successes: number, draws: number): void {
  if (successes > population || draws > population || successes < 0 || draws < 0) {
    throw new RangeError(`no hypergeometric with population ${population}, successes ${successes}, draws ${draws}`)
  }
}
