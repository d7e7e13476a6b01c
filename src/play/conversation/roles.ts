import type { Scenario } from '../../records/scenario/scenario.ts'
import type { ModelCallContext } from '../../adapters/model-client/model-call.ts'
import type { ClaimDecision, DialogueLine, FailedDialogue, UserReviewFindings } from './dialogue.ts'

export type { ClaimDecision, DialogueLine, FailedDialogue, UserReviewFindings } from './dialogue.ts'

/**
 * convy-ci's own models: the simulated user, the judge and the reviewer of the simulated user. The conversation player depends on these
 * interfaces only; src/simulated-user and src/judge implement them over the model client.
 */
export interface UserLine {
  /** The message to send; may be empty when the user only stops. */
  text: string
  /** The user is done: send `text` if non-empty, then end the conversation. */
  stop: boolean
}

export interface SimulatedUser {
  readonly model: string
  /** The model a scenario's lines come from (its `simulated_user.model`); default `model`. */
  modelFor?(scenario: Scenario): string
  next(scenario: Scenario, dialogue: readonly DialogueLine[], context: ModelCallContext): Promise<UserLine>
}

export interface Judge {
  readonly model: string
  /** One decision per claim of `scenario.judge`, in order. Throws ModelError when there is no verdict. */
  decide(scenario: Scenario, dialogue: readonly DialogueLine[], context: ModelCallContext): Promise<ClaimDecision[]>
}

export interface UserReviewer {
  readonly model: string
  /**
   * Reads a failed attempt's dialogue against the simulated user's instructions and names the user's
   * own mistakes. Throws ModelError when the answer cannot be read.
   */
  review(scenario: Scenario, failed: FailedDialogue, context: ModelCallContext): Promise<UserReviewFindings>
}
