/**
 * Judge noise against agent flakiness (notes/stats.md §4). Each attempt's transcript was judged m
 * times and passed j of them; with q̂ = j/m, the variance of one verdict splits into J + A:
 * - judge noise J = E[q(1−q)], estimated without bias by Ĵ = mean of j(m−j)/(m(m−1)); the judge's
 *   flip rate, the chance that two judgements of one transcript disagree, is 2Ĵ;
 * - agent flakiness A = Var(q), estimated by Â = s²(q̂) − Ĵ/m (floored at 0).
 * A scenario whose changes come from the judge disagreeing with itself (Ĵ > 0 and Ĵ ≥ Â) is
 * judge-unstable, distinct from a flaky agent.
 */
export interface JudgeNoise {
  /** Attempts judged m ≥ 2 times. */
  attempts: number
  judgeNoise: number
  agentFlakiness: number
  flipRate: number
  unstable: boolean
}

/** One attempt's judgements: passes out of samples. */
export interface Judgements {
  passes: number
  samples: number
}

/** Null when fewer than one attempt was judged at least twice: nothing to tell the two apart with. */
export function judgeNoise(attempts: readonly Judgements[]): JudgeNoise | null {
  const sampled = attempts.filter((a) => a.samples >= 2)
  if (sampled.length === 0) return null
  const n = sampled.length
  const judge = sampled.reduce((sum, a) => sum + (a.passes * (a.samples - a.passes)) / (a.samples * (a.samples - 1)), 0) / n
  const rates = sampled.map((a) => a.passes / a.samples)
  const mean = rates.reduce((sum, q) => sum + q, 0) / n
  const variance = n < 2 ? 0 : rates.reduce((sum, q) => sum + (q - mean) ** 2, 0) / (n - 1)
  const meanSamples = sampled.reduce((sum, a) => sum + a.samples, 0) / n
  const agent = Math.max(0, variance - judge / meanSamples)
  return { attempts: n, judgeNoise: judge, agentFlakiness: agent, flipRate: 2 * judge, unstable: judge > 0 && judge >= agent }
}
