import * as z from '../../base/shared/zod.ts'
import type { FailedDialogue, UserReviewer, UserReviewFindings } from '../conversation/roles.ts'
import { SimulatorMistakeSchema } from '../../records/journal/records.ts'
import { answerJson, preview, stripReasoning } from '../../adapters/model-client/answer-text.ts'
import { ModelError, type ModelCallContext } from '../../adapters/model-client/model-call.ts'
import type { ChatAnswer, ChatClient } from '../../adapters/model-client/openai-chat-client.ts'
import type { Scenario } from '../../records/scenario/scenario.ts'
import { REVIEW_TEMPERATURE, USER_REVIEW_SCHEMA, userReviewMessages } from './user-review-prompt.ts'

const FindingsSchema = z.object({ mistakes: z.array(SimulatorMistakeSchema), reason: z.string(), decided: z.boolean() })

/**
 * The reviewer of the simulated user over an OpenAI-compatible endpoint: one call per failed
 * attempt, asked once. An answer it cannot read is a ModelError, and the attempt keeps its verdict:
 * the review can only take a failure off the agent, never add one, so it is not asked twice.
 */
export class OpenAIUserReviewer implements UserReviewer {
  readonly model: string
  readonly #client: ChatClient

  constructor(client: ChatClient, model: string) {
    this.#client = client
    this.model = model
  }

  async review(scenario: Scenario, failed: FailedDialogue, context: ModelCallContext): Promise<UserReviewFindings> {
    if (scenario.user === undefined) throw new Error(`scenario ${scenario.id} has no simulated user to review`)
    const messages = userReviewMessages({ instructions: scenario.user, ...failed })
    const request = { model: this.model, purpose: 'reviewer', messages, temperature: REVIEW_TEMPERATURE, jsonSchema: USER_REVIEW_SCHEMA }
    const answer = await this.#client.complete(request, context)
    return readFindings(answer, failed.dialogue.filter((line) => line.role === 'user').length, `reviewer model "${this.model}"`)
  }
}

/**
 * The findings in the reviewer's answer. A mistake must name a line the user spoke; `decided` without
 * a mistake named is not believed (nothing would say what the user did wrong).
 */
export function readFindings(answer: ChatAnswer, userLines: number, what: string): UserReviewFindings {
  if (answer.refusal) throw new ModelError('refusal', `${what}: refused to review: ${answer.refusal}`)
  if (answer.finishReason === 'content_filter') throw new ModelError('refusal', `${what}: its answer was withheld by a content filter`)
  if (answer.finishReason === 'length') throw new ModelError('bad_answer', `${what}: its answer was cut off at the length limit`)
  const text = stripReasoning(answer.content ?? '')
  const json = answerJson(text, what)
  const parsed = FindingsSchema.safeParse(json)
  if (!parsed.success) throw new ModelError('bad_answer', `${what}: the answer is not {"mistakes": [{"kind", "line", "note"}, …], "reason", "decided"}: ${preview(text)}`)
  const { mistakes, reason, decided } = parsed.data
  const stray = mistakes.find((m) => m.line > userLines)
  if (stray) throw new ModelError('bad_answer', `${what}: a mistake in user line ${stray.line}, but the user wrote ${userLines}`)
  return { mistakes: mistakes.map((m) => ({ ...m, note: m.note.trim() })), reason: reason.trim(), decided: decided && mistakes.length > 0 }
}

