import type { CheckResult, ClaimResult } from '../../records/journal/records.ts'
import type { ModelCallContext } from '../../adapters/model-client/model-call.ts'
import { errorMessage } from '../../base/shared/errors.ts'
import { maskDeep, type Mask } from '../../base/shared/secrets.ts'
import type { AttemptBuilder } from './attempt-builder.ts'
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
export async function reviewFailure(attempt: AttemptBuilder, checks: readonly CheckResult[], claims: readonly ClaimResult[], { reviewer, mask, context }: Reviewing): Promise<void> {
  if (!reviewer || attempt.failure || (checks.every((c) => c.pass) && claims.every((c) => c.pass))) return
  const failures = [
    ...claims.filter((c) => !c.pass).map((c) => `The claim "${c.claim}" does not hold. The judge: ${c.reason}`),
    ...checks.filter((c) => !c.pass).map((c) => `The check ${c.kind} "${c.value}" failed: ${c.detail}`),
  ]
  try {
    const findings = await reviewer.review(attempt.scenario, { dialogue: maskDeep(attempt.dialogue, mask), failures, ending: endingText(attempt) }, context)
    attempt.review = { model: reviewer.model, ...findings, error: null }
  } catch (cause) {
    throwIfInterrupted(context.signal)
    attempt.review = { model: reviewer.model, mistakes: [], decided: false, reason: '', error: mask(errorMessage(cause)) }
  }
}

function endingText({ endedBy, scenario }: AttemptBuilder): string {
  if (endedBy === 'max_turns') return `cut off at max_turns (${scenario.maxTurns} user messages) before the simulated user ended it`
  if (endedBy === 'stop_check') return "the agent's last answer broke a check that ends the attempt at once"
  return 'the simulated user ended it'
}
