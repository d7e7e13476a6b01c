import { atMost } from './counts.ts'

export interface TaroneCorrection {
  alpha: number
  /** K: how many tests the family is corrected for — only those that could reach α/K at all. */
  testable: number
  /** α/K: a test in the family is significant when its p is at most this. */
  threshold: number
}

/**
 * Tarone's (1990) discrete Bonferroni correction. Most scenarios (5/5 in both runs, say) cannot
 * produce a small p given their margins, so counting them as tests, as Bonferroni or Holm do, would
 * make every scenario impossible to flag. K is the smallest number with at most K tests whose
 * smallest achievable p (`minimumPs`) is ≤ α/K.
 */
export function taroneCorrection(minimumPs: readonly number[], alpha: number): TaroneCorrection {
  const sorted = [...minimumPs].sort((a, b) => a - b)
  let reachable = sorted.length
  for (let k = 1; ; k++) {
    while (reachable > 0 && !atMost(sorted[reachable - 1]!, alpha / k)) reachable--
    if (reachable <= k) return { alpha, testable: k, threshold: alpha / k }
  }
}
