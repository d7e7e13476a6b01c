/**
 * Judge noise against agent flakiness (docs/statistics.md, judge noise). Each attempt's transcript was judged m
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

/**
 * Null when no attempt was judged at least twice: nothing to tell the two apart with. Attempts judged
 * once still count towards the spread of the dialogues (their q̂ is their verdict, 0 or 1): for them
 * Var(q̂) holds all of the judge's noise, so Â = s²(q̂) − Ĵ·mean(1/m). Pooling both runs' attempts of
 * a scenario this way, a broken agent (every dialogue passed before, none after) shows a large Â and
 * is not mistaken for a noisy judge.
 */
export function judgeNoise(attempts: readonly Judgements[]): JudgeNoise | null {
  const sampled = attempts.filter((a) => a.samples >= 2)
  if (sampled.length === 0) return null
  const judge = sampled.reduce((sum, a) => sum + (a.passes * (a.samples - a.passes)) / (a.samples * (a.samples - 1)), 0) / sampled.length
  const all = attempts.filter((a) => a.samples >= 1)
  const n = all.length
  const rates = all.map((a) => a.passes / a.samples)
  const mean = rates.reduce((sum, q) => sum + q, 0) / n
  const variance = n < 2 ? 0 : rates.reduce((sum, q) => sum + (q - mean) ** 2, 0) / (n - 1)
  const meanInverseSamples = all.reduce((sum, a) => sum + 1 / a.samples, 0) / n
  const agent = Math.max(0, variance - judge * meanInverseSamples)
  return { attempts: sampled.length, judgeNoise: judge, agentFlakiness: agent, flipRate: 2 * judge, unstable: judge > 0 && judge >= agent }
}
