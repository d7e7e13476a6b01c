import type { Attempt, CheckResult, ClaimResult, EndedBy, UserReview } from '../../records/journal/records.ts'
import type { ModelCallContext } from '../../adapters/model-client/model-call.ts'
import type { Scenario } from '../../records/scenario/scenario.ts'
import { errorMessage } from '../../base/shared/errors.ts'
import { maskDeep, type Mask } from '../../base/shared/secrets.ts'
import type { AttemptBuilder } from './attempt-builder.ts'
import type { DialogueLine } from './dialogue.ts'
import { throwIfInterrupted } from './failures.ts'
import type { UserReviewer } from './roles.ts'

export interface Reviewing {
  /** Null when the review is off, or when no simulated user played the attempt (a script has no mistakes of its own). */
  reviewer: UserReviewer | null
  mask: Mask
  /** The reviewer's call: counted, cancelled and cached per attempt. */
  context: ModelCallContext
}

/**
 * The review of a failed attempt: the simulated user's mistakes, and whether one decided the failure
 * (the attempt is then user_error, out of the pass rate). Only an attempt the judge or the checks
 * failed is reviewed: an agent error or no verdict is not a failure to put on anyone else. A review
 * that fails is recorded with its error and changes nothing.
 */
export async function reviewFailure(attempt: AttemptBuilder, checks: readonly CheckResult[], claims: readonly ClaimResult[], reviewing: Reviewing): Promise<void> {
  if (!reviewing.reviewer || attempt.failure || (checks.every((c) => c.pass) && claims.every((c) => c.pass))) return
  attempt.review = await reviewOf(attempt.scenario, attempt.dialogue, { checks, claims, endedBy: attempt.endedBy ?? null }, reviewing)
}

/**
 * A recorded attempt, judged again, reviewed as it would be when played: with another review (a
 * baseline judged again with the PR's judge and review), a failure may become user_error or stop being
 * one. Without a reviewer, or for a script's attempt, any old review is dropped and the verdict is the
 * judge's. `dialogue` is the attempt's as the judge saw it.
 */
export async function reviewRecorded(attempt: Attempt, scenario: Scenario, dialogue: readonly DialogueLine[], reviewing: Reviewing): Promise<Attempt> {
  const { review: _old, ...rest } = attempt
  const plain: Attempt = { ...rest, verdict: attempt.verdict === 'user_error' ? 'failed' : attempt.verdict }
  if (!reviewing.reviewer || scenario.user === undefined || plain.verdict !== 'failed') return plain
  const review = await reviewOf(scenario, dialogue, { checks: attempt.checks, claims: attempt.claims, endedBy: attempt.endedBy ?? null }, reviewing)
  return { ...plain, review, verdict: review.decided ? 'user_error' : 'failed' }
}

async function reviewOf(scenario: Scenario, dialogue: readonly DialogueLine[], decided: { checks: readonly CheckResult[]; claims: readonly ClaimResult[]; endedBy: EndedBy | null }, { reviewer, mask, context }: Reviewing): Promise<UserReview> {
  const failures = [
    ...decided.claims.filter((c) => !c.pass).map((c) => `The claim "${c.claim}" does not hold. The judge: ${c.reason}`),
    ...decided.checks.filter((c) => !c.pass).map((c) => `The check ${c.kind} "${c.value}" failed: ${c.detail}`),
  ]
  try {
    const findings = await reviewer!.review(scenario, { dialogue: maskDeep([...dialogue], mask), failures, ending: endingText(decided.endedBy, scenario) }, context)
    return { model: reviewer!.model, ...findings, error: null }
  } catch (cause) {
    throwIfInterrupted(context.signal)
    return { model: reviewer!.model, mistakes: [], decided: false, reason: '', error: mask(errorMessage(cause)) }
  }
}

function endingText(endedBy: EndedBy | null, scenario: Scenario): string {
  if (endedBy === 'max_turns') return `cut off at max_turns (${scenario.maxTurns} user messages) before the simulated user ended it`
  if (endedBy === 'stop_check') return "the agent's last answer broke a check that ends the attempt at once"
  return 'the simulated user ended it'
}
