import * as z from '../../base/shared/zod.ts'
import type { ClaimDecision, DialogueLine, Judge } from '../conversation/roles.ts'
import { ModelError, type ModelCallContext } from '../../adapters/model-client/model-call.ts'
import type { ChatAnswer, ChatClient } from '../../adapters/model-client/openai-chat-client.ts'
import { CLAIM_DECISIONS_SCHEMA, JUDGE_TEMPERATURE, judgeMessages, judgeMessagesAgain } from './judge-prompt.ts'
import { answerJson, preview, stripReasoning } from '../../adapters/model-client/answer-text.ts'
import type { Scenario } from '../../records/scenario/scenario.ts'

const DecisionsSchema = z.object({
  claims: z.array(z.object({ claim: z.number(), pass: z.boolean(), reason: z.string() })),
})

/** A malformed answer is asked for once more (a sampling accident); a second one is no verdict. */
const ASKS_FOR_DECISIONS = 2

/**
 * The judge over an OpenAI-compatible endpoint: one call per attempt, after the dialogue, and one
 * more when the answer cannot be read. Every call's tries are recorded, the second ask's too.
 */
export class OpenAIJudge implements Judge {
  readonly model: string
  readonly #client: ChatClient

  constructor(client: ChatClient, model: string) {
    this.#client = client
    this.model = model
  }

  async decide(scenario: Scenario, dialogue: readonly DialogueLine[], context: ModelCallContext): Promise<ClaimDecision[]> {
    if (scenario.judge.length === 0) return []
    const what = `judge model "${this.model}"`
    for (let ask = 1; ; ask++) {
      const messages = ask === 1 ? judgeMessages(scenario.judge, dialogue, scenario.context) : judgeMessagesAgain(scenario.judge, dialogue, scenario.context)
      // The same dialogue should get the same decisions; sampling would only add noise to the verdict.
      const answer = await this.#client.complete({ model: this.model, purpose: 'judge', messages, temperature: JUDGE_TEMPERATURE, jsonSchema: CLAIM_DECISIONS_SCHEMA }, context)
      try {
        return readDecisions(answer, scenario.judge.length, what)
      } catch (error) {
        // A refusal or a filtered answer would only be refused again; a garbled one may come out right.
        if (!(error instanceof ModelError) || error.failure !== 'bad_answer' || ask >= ASKS_FOR_DECISIONS) throw error
      }
    }
  }
}

/**
 * The decisions in the judge's answer. Anything but one well-formed decision per claim is no verdict
 * (a ModelError), never a fail: a judge that fails must not make the agent look worse.
 */
export function readDecisions(answer: ChatAnswer, claimCount: number, what: string): ClaimDecision[] {
  if (answer.refusal) throw new ModelError('refusal', `${what}: refused to judge: ${answer.refusal}`)
  if (answer.finishReason === 'content_filter') throw new ModelError('refusal', `${what}: its answer was withheld by a content filter`)
  if (answer.finishReason === 'length') throw new ModelError('bad_answer', `${what}: its answer was cut off at the length limit`)
  const text = stripReasoning(answer.content ?? '')
  if (text === '') throw new ModelError('bad_answer', `${what}: answered with nothing${answer.content?.trim() ? ' but its reasoning' : ''}`)
  const json = answerJson(text, what)
  const parsed = DecisionsSchema.safeParse(json)
  if (!parsed.success) throw new ModelError('bad_answer', `${what}: the answer is not {"claims": [{"claim", "reason", "pass"}, …]}: ${preview(text)}`)
  const decisions = parsed.data.claims
  if (decisions.length !== claimCount) {
    throw new ModelError('bad_answer', `${what}: ${decisions.length} decision${decisions.length === 1 ? '' : 's'} for ${claimCount} claim${claimCount === 1 ? '' : 's'}`)
  }
  // Matched by number, not trusted by position: a decision that answers another claim is no decision.
  const misplaced = decisions.findIndex((decision, i) => decision.claim !== i + 1)
  if (misplaced >= 0) throw new ModelError('bad_answer', `${what}: decision ${misplaced + 1} answers claim ${decisions[misplaced]!.claim}`)
  return decisions.map(({ pass, reason }) => ({ pass, reason: reason.trim() }))
}

