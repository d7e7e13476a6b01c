import type { ClaimDecision, DialogueLine, Judge } from '../conversation/roles.ts'
import type { ModelCallContext } from '../../adapters/model-client/model-call.ts'
import type { Scenario } from '../../records/scenario/scenario.ts'

/**
 * A judge asked `samples` times about the same dialogue (run --judge-samples, rejudge): each claim
 * carries its votes, one per sample, and its decision is their majority. A judge that disagrees with
 * itself is then visible (tally/judge-noise.ts) instead of passing for a flaky agent.
 *
 * Each sample has its own entry in the model cache (the sample number is part of the key), so the
 * samples are independent asks, never one answer read back m times. Sample 1 keeps the key of a
 * single judgement, so a run with samples reuses what a run without them cached.
 *
 * A sample that gives no verdict is left out; with none at all the attempt has no verdict. A tie
 * (an even number of votes) goes to the first sample's decision: what a single judgement would have said.
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
      return scenario.judge.map((_, claim) => majority(answered.map((decisions) => decisions[claim]!)))
    },
  }
}

/** The majority of the samples' decisions on one claim, with the reason of the first sample that agrees with it. */
export function majority(decisions: readonly ClaimDecision[]): ClaimDecision {
  const votes = decisions.map((d) => d.pass)
  const yes = votes.filter(Boolean).length
  const pass = yes * 2 === votes.length ? votes[0]! : yes * 2 > votes.length
  const reason = decisions.find((d) => d.pass === pass)!.reason
  return { pass, reason, votes }
}
