import type { DialogueLine, SimulatedUser, UserLine } from '../conversation/roles.ts'
import { ModelError, type ModelCallContext } from '../../adapters/model-client/model-call.ts'
import type { ChatClient } from '../../adapters/model-client/openai-chat-client.ts'
import { simulatedUserMessages } from './simulated-user-prompt.ts'
import { stripReasoning } from '../../adapters/model-client/answer-text.ts'
import type { Scenario } from '../../records/scenario/scenario.ts'

/** Lenient about spacing and case: models write `### STOP ###` or `###stop###` now and then. */
const STOP_PATTERN = /#{3}\s*stop\s*#{3}/i
/** A label the model puts before its own line ("User:", "**Customer:**"). */
const OWN_LABEL = /^\*{0,2}(?:user|human|customer)\*{0,2}\s*:\s*\*{0,2}\s*/i
/** A line where the model starts writing the assistant's reply too; that part is not the user's. */
const OTHER_SIDE = /\n\s*\*{0,2}(?:assistant|agent)\*{0,2}\s*:/i

/** How often an empty answer is asked for again before it counts as a failure of the model. */
const ASKS_FOR_A_LINE = 2

/**
 * The simulated user over an OpenAI-compatible endpoint. A scenario's `simulated_user` settings
 * (model, temperature, max_tokens) replace convy.yml's for that scenario's lines.
 */
export class OpenAISimulatedUser implements SimulatedUser {
  /** The model of scenarios that name none: convy.yml's `models.user`. */
  readonly model: string
  readonly #client: ChatClient
  readonly #temperature: number | undefined

  constructor(client: ChatClient, model: string, temperature?: number) {
    this.#client = client
    this.model = model
    this.#temperature = temperature
  }

  modelFor(scenario: Scenario): string {
    return scenario.simulatedUser?.model ?? this.model
  }

  async next(scenario: Scenario, dialogue: readonly DialogueLine[], context: ModelCallContext): Promise<UserLine> {
    if (scenario.user === undefined) throw new Error(`scenario ${scenario.id} has no instructions for the simulated user`)
    const messages = simulatedUserMessages(scenario.user, dialogue, scenario.context)
    const own = scenario.simulatedUser
    const model = this.modelFor(scenario)
    const what = `simulated user model "${model}"`
    // Sampling is the server's default unless set: the user's variety is what k attempts measure.
    const request = { model, purpose: 'simulated user', messages, temperature: own?.temperature ?? this.#temperature, maxTokens: own?.maxTokens }
    for (let ask = 1; ; ask++) {
      const answer = await this.#client.complete(request, context)
      if (answer.refusal) throw new ModelError('refusal', `${what}: refused to play the user: ${answer.refusal}`)
      if (answer.finishReason === 'content_filter') throw new ModelError('refusal', `${what}: its answer was withheld by a content filter`)
      const line = readUserAnswer(answer.content ?? '')
      if (line.stop || line.text !== '') return line
      // An empty line now and then is a sampling accident; twice in a row is the model's failure.
      if (ask >= ASKS_FOR_A_LINE) throw new ModelError('bad_answer', `${what}: answered with an empty message ${ask} times`)
    }
  }
}

/**
 * The user's line from the model's raw answer: reasoning blocks go first (a thought that mentions
 * `###STOP###` is not a stop, and is never sent); then `###STOP###` alone or at the end stops the
 * conversation and what comes before it is still sent; labels and wrapping quotes are removed.
 */
export function readUserAnswer(raw: string): UserLine {
  const answer = stripReasoning(raw)
  const stopAt = answer.search(STOP_PATTERN)
  const stop = stopAt >= 0
  let text = stop ? answer.slice(0, stopAt) : answer
  const otherSide = text.search(OTHER_SIDE)
  if (otherSide >= 0) text = text.slice(0, otherSide)
  text = text.trim().replace(OWN_LABEL, '').trim()
  return { text: unquote(text), stop }
}

/** `"Make me a backup script"` → `Make me a backup script`, when the quotes wrap the whole line. */
function unquote(text: string): string {
  const wrapped = /^"([^"]*)"$/.exec(text) ?? /^“([^“”]*)”$/.exec(text)
  return wrapped ? wrapped[1]!.trim() : text
}
