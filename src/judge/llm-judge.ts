import { z } from 'zod'
import type { ClaimDecision, DialogueLine, Judge } from '../conversation/roles.ts'
import { ModelError, type ModelCallContext } from '../model-client/model-call.ts'
import type { ChatAnswer, ChatClient } from '../model-client/openai-chat-client.ts'
import { CLAIM_DECISIONS_SCHEMA, judgeMessages } from './judge-prompt.ts'
import type { Scenario } from '../scenario/scenario.ts'
import { errorMessage } from '../shared/errors.ts'

const DecisionsSchema = z.object({
  claims: z.array(z.object({ pass: z.boolean(), reason: z.string() })),
})

/** The judge over an OpenAI-compatible endpoint: one call per attempt, after the dialogue. */
export class OpenAIJudge implements Judge {
  readonly model: string
  readonly #client: ChatClient

  constructor(client: ChatClient, model: string) {
    this.#client = client
    this.model = model
  }

  async decide(scenario: Scenario, dialogue: readonly DialogueLine[], context: ModelCallContext): Promise<ClaimDecision[]> {
    if (scenario.judge.length === 0) return []
    const answer = await this.#client.complete(
      {
        model: this.model,
        purpose: 'judge',
        messages: judgeMessages(scenario.judge, dialogue),
        // The same dialogue should get the same decisions; sampling would only add noise to the verdict.
        temperature: 0,
        jsonSchema: CLAIM_DECISIONS_SCHEMA,
      },
      context,
    )
    return readDecisions(answer, scenario.judge.length, `judge model "${this.model}"`)
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
  const text = unfence(answer.content ?? '')
  if (text === '') throw new ModelError('bad_answer', `${what}: answered with nothing`)
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch (error) {
    throw new ModelError('bad_answer', `${what}: the answer is not JSON (${errorMessage(error)}): ${preview(text)}`)
  }
  const parsed = DecisionsSchema.safeParse(json)
  if (!parsed.success) throw new ModelError('bad_answer', `${what}: the answer is not {"claims": [{"pass", "reason"}, …]}: ${preview(text)}`)
  const decisions = parsed.data.claims
  if (decisions.length !== claimCount) {
    throw new ModelError('bad_answer', `${what}: ${decisions.length} decision${decisions.length === 1 ? '' : 's'} for ${claimCount} claim${claimCount === 1 ? '' : 's'}`)
  }
  return decisions.map(({ pass, reason }) => ({ pass, reason: reason.trim() }))
}

/** In JSON mode, or with no format at all, some models wrap the object in a ```json fence. */
function unfence(text: string): string {
  const fenced = /^```(?:json)?\s*\n([\s\S]*?)\n?```$/i.exec(text.trim())
  return (fenced ? fenced[1]! : text).trim()
}

function preview(text: string): string {
  return text.length > 200 ? `${text.slice(0, 200)}…` : text
}
