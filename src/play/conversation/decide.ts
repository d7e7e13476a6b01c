import type { CheckResult, ClaimResult, EndedBy } from '../../records/journal/records.ts'
import { answers } from '../../records/journal/attempt-facts.ts'
import { runChecks } from '../judge/checks.ts'
import type { ModelCallContext } from '../../adapters/model-client/model-call.ts'
import { errorMessage } from '../../base/shared/errors.ts'
import { maskDeep, type Mask } from '../../base/shared/secrets.ts'
import type { AttemptBuilder } from './attempt-builder.ts'
import { NoVerdict, throwIfInterrupted } from './failures.ts'
import type { Judge } from './roles.ts'
import { withContext } from './world-steps.ts'

const ENDED_LOST = new Set<EndedBy | undefined>(['stop_check', 'stop_if', 'limit'])

export interface Deciding {
  judge: Judge | null
  /** Ask the judge about the claims; false for --smoke and a replay that decides the checks only. */
  judging: boolean
  mask: Mask
  /** The judge's call: counted, cancelled and cached per attempt. */
  context: ModelCallContext
}

/**
 * convy-ci's checks, then the judge, on the whole dialogue of an attempt that did not fail. A judge
 * that gives no verdict fails the attempt (no_verdict) and keeps the checks.
 */
export async function decideAttempt(attempt: AttemptBuilder, deciding: Deciding): Promise<{ checks: CheckResult[]; claims: ClaimResult[] }> {
  if (attempt.failure) return { checks: [], claims: [] }
  const { scenario } = attempt
  const answered = answers(attempt.turns)
  const checks = [
    ...(await runChecks(scenario.checks, answered.map((t) => t.text), answered.map((t) => t.toolCalls ?? []), { signal: deciding.context.signal, context: attempt.context })),
    ...attempt.worldChecks,
  ]
  // A fatal check, a stop_if claim or a limit decided the attempt: the judge is not asked about a conversation already lost.
  if (!deciding.judging || ENDED_LOST.has(attempt.endedBy) || scenario.judge.length === 0) return { checks, claims: [] }
  try {
    return { checks, claims: await judgeDialogue(attempt, deciding) }
  } catch (error) {
    if (!(error instanceof NoVerdict)) throw error
    attempt.fail(error)
    return { checks, claims: [] }
  }
}

async function judgeDialogue(attempt: AttemptBuilder, { judge, mask, context }: Deciding): Promise<ClaimResult[]> {
  const failed = (error: string) => new NoVerdict(`the judge (${judge?.model}) gave no verdict: ${error}`)
  if (!judge) throw failed('no judge model is configured')
  const { scenario } = attempt
  try {
    // The judge does not need a secret the agent echoed: it sees the dialogue masked, as it is recorded.
    const decisions = await judge.decide(withContext(scenario, attempt.context, mask), maskDeep(attempt.dialogue, mask), context)
    return scenario.judge.map((claim, i) => ({ claim, pass: decisions[i]!.pass, reason: decisions[i]!.reason, ...(decisions[i]!.votes ? { votes: decisions[i]!.votes } : {}) }))
  } catch (cause) {
    throwIfInterrupted(context.signal)
    throw failed(mask(errorMessage(cause)))
  }
}
