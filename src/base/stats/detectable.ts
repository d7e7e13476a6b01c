import { atMost } from './counts.ts'
import { fisherExact } from './exact-tests.ts'
import { Z_95 } from './intervals.ts'

/** z for 80% power: Φ⁻¹(0.8). */
export const Z_80 = 0.8416212335729143

/**
 * The smallest overall drop from `baselineRate` that a comparison with `attemptsPerRun` verdicts on
 * each side would detect with the given power (80%) at two-sided α (0.05), by the arcsine
 * approximation: p₂ = sin²(asin√p₁ − (z₁₋α/₂ + z₁₋β)/√(2n)). The exact tests need somewhat more.
 * Null when even a drop to 0% would not be detected reliably.
 */
export function minimumDetectableDrop(baselineRate: number, attemptsPerRun: number, zAlpha: number = Z_95, zPower: number = Z_80): number | null {
  if (attemptsPerRun <= 0) return null
  const angle = Math.asin(Math.sqrt(baselineRate)) - (zAlpha + zPower) / Math.sqrt(2 * attemptsPerRun)
  if (angle < 0) return null
  return baselineRate - Math.sin(angle) ** 2
}

/**
 * The exact tests need more attempts than the arcsine formula says (docs/statistics.md: 10–20% at
 * S = 20, k = 3; more at the one-sided levels a gate uses): bench/gate.ts measured the formula's
 * drop at k = 5 caught about 70% of the time instead of 80%. A comparison claims the drop the formula
 * gives for this many times fewer attempts, which bench:gate checks is caught at least 80% of the time.
 */
export const EXACT_TEST_ATTEMPTS_FACTOR = 1.4

/** The drop a comparison claims to detect with 80% power: minimumDetectableDrop for the exact tests' attempts. */
export function detectableDrop(baselineRate: number, attemptsPerRun: number, zAlpha: number): number | null {
  return minimumDetectableDrop(baselineRate, attemptsPerRun / EXACT_TEST_ATTEMPTS_FACTOR, zAlpha)
}

/**
 * With k attempts on each side, the most passes out of k the later run may keep for a scenario that
 * passed k/k before to register at one-sided α (k/k → j/k or lower). Null when not even k/k → 0/k can.
 */
export function flaggableScenarioDrop(k: number, alpha: number): number | null {
  let flaggable: number | null = null
  for (let j = 0; j < k; j++) {
    if (!atMost(fisherExact({ passed: j, total: k }, { passed: k, total: k }).less, alpha)) break
    flaggable = j
  }
  return flaggable
}
