import type { Counts } from './counts.ts'

export interface KEstimate {
  k: number
  /** Mean over the scenarios with at least k verdicts; null when there are none. */
  value: number | null
  scenarios: number
  /** Scenarios left out because they have fewer than k verdicts. */
  skipped: number
}

/**
 * pass^k (τ-bench): the chance that k fresh attempts of a scenario all pass, estimated without bias
 * by C(c, k)/C(n, k) and averaged over scenarios. Each scenario uses its own n, so missing verdicts
 * do not bias it; scenarios with n < k cannot say anything about k attempts and are skipped.
 */
export function passHatK(scenarios: readonly Counts[], k: number): KEstimate {
  return averageOver(scenarios, k, ({ passed, total }) => {
    let value = 1
    for (let i = 0; i < k; i++) value *= (passed - i) / (total - i)
    return Math.max(0, value)
  })
}

/** pass@k (Chen et al.): the chance that at least one of k attempts passes, 1 − C(n−c, k)/C(n, k). */
export function passAtK(scenarios: readonly Counts[], k: number): KEstimate {
  return averageOver(scenarios, k, ({ passed, total }) => {
    if (total - passed < k) return 1
    let allFail = 1
    for (let i = total - passed + 1; i <= total; i++) allFail *= 1 - k / i
    return 1 - allFail
  })
}

function averageOver(scenarios: readonly Counts[], k: number, estimate: (counts: Counts) => number): KEstimate {
  let sum = 0
  let used = 0
  for (const counts of scenarios) {
    if (counts.total < k) continue
    sum += estimate(counts)
    used++
  }
  return { k, value: used === 0 ? null : sum / used, scenarios: used, skipped: scenarios.length - used }
}

export interface Stability {
  /** Every verdict passed. */
  alwaysPass: number
  /** Some passed, some failed. */
  flaky: number
  /** Every verdict failed. */
  alwaysFail: number
  /** No attempt got a verdict. */
  noVerdict: number
}

export function stability(scenarios: readonly Counts[]): Stability {
  const result: Stability = { alwaysPass: 0, flaky: 0, alwaysFail: 0, noVerdict: 0 }
  for (const { passed, total } of scenarios) {
    if (total === 0) result.noVerdict++
    else if (passed === total) result.alwaysPass++
    else if (passed === 0) result.alwaysFail++
    else result.flaky++
  }
  return result
}
