import type { ClaimDecision, DialogueLine, Judge } from '../conversation/roles.ts'
import type { ModelCallContext } from '../../adapters/model-client/model-call.ts'
import type { Scenario } from '../../records/scenario/scenario.ts'

/**
 * A judge asked `samples` times about the same dialogue (run --judge-samples, rejudge): each claim
 * carries its votes, one per sample, and its decision is their majority. A judge that disagrees with
 * itself is then visible (base/stats/judge-noise.ts) instead of passing for a flaky agent.
 *
 * Each sample has its own entry in the model cache (the sample number is part of the key), so the
 * samples are independent asks, never one answer read back m times. Sample 1 keeps the key of a
 * single judgement, so a run with samples reuses what a run without them cached.
 *
 * A sample that gives no verdict is left out; with none at all the attempt has no verdict. A tie on
 * any claim (as many votes for as against) is no verdict too: handing it to the first sample, as this
 * once did, let one judgement outvote the rest, and on the PR's side alone. A tie is counted as
 * missing evidence rather than forbidden by requiring odd m, because an odd m ties as soon as one
 * sample fails (3 asked, 2 answered): only this rule covers both.
 */
export function sampledJudge(judge: Judge, samples: number): Judge {
  if (samples <= 1) return judge
  return {
    model: judge.model,
    async decide(scenario: Scenario, dialogue: readonly DialogueLine[], context: ModelCallContext): Promise<ClaimDecision[]> {
      const answered: ClaimDecision[][] = []
      let lastError: unknown
      for (let sample = 1; sample <= samples; sample++) {
        const scoped = sample === 1 || context.cacheScope === undefined ? context : { ...context, cacheScope: `${context.cacheScope}#judge-sample-${sample}` }
        try {
          answered.push(await judge.decide(scenario, dialogue, scoped))
        } catch (error) {
          if (context.signal.aborted) throw error
          lastError = error
        }
      }
      if (answered.length === 0) throw lastError
      const decided = scenario.judge.map((_, claim) => majority(answered.map((decisions) => decisions[claim]!)))
      const tied = decided.findIndex((decision) => decision === null)
      if (tied >= 0) throw new Error(`its ${answered.length} samples tied on claim ${tied + 1} (${answered.length / 2} for, ${answered.length / 2} against), so neither side has a majority`)
      return decided as ClaimDecision[]
    },
  }
}

/** The majority of the samples' decisions on one claim, with the reason of the first sample that agrees with it; null on a tie. */
export function majority(decisions: readonly ClaimDecision[]): ClaimDecision | null {
  const votes = decisions.map((d) => d.pass)
  const yes = votes.filter(Boolean).length
  if (yes * 2 === votes.length) return null
  const pass = yes * 2 > votes.length
  const reason = decisions.find((d) => d.pass === pass)!.reason
  return { pass, reason, votes }
}
