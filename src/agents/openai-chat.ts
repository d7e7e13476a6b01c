import OpenAI, { APIConnectionError, APIError } from 'openai'
import type { ChatCompletion, ChatCompletionCreateParamsNonStreaming, ChatCompletionMessageParam } from 'openai/resources/chat/completions'
import type { OpenAIChatAgentConfig } from '../config/config.ts'
import type { Fetch } from '../http/fetch.ts'
import type { Agent, Answer, Message } from './agent.ts'
import { excerpt, networkCause } from './fetch-json.ts'

/**
 * An agent that is itself OpenAI-compatible (`protocol: openai-chat`): the protocol is stateless, so
 * every turn resends the whole dialogue, the configured system message first.
 *
 * Through the official `openai` client rather than plain fetch: it is the reference for the wire
 * format, and streaming (a later step) reuses its SSE parsing. Its conveniences are switched off
 * where they would be wrong here: no retries and no timeout of its own (the runner owns both through
 * the signal), and nothing read from the environment — left to itself the client would send the
 * user's OPENAI_API_KEY, organization and project to the agent under test.
 */

// The longest delay a Node timer accepts; the real limit is the runner's signal.
const NO_CLIENT_TIMEOUT_MS = 2 ** 31 - 1

/** `fetch`: the HTTP client; default: the built-in one. */
export function createOpenAIChatAgent(config: OpenAIChatAgentConfig, fetch?: Fetch): Agent {
  const client = new OpenAI({
    baseURL: config.url,
    // openai@6 refuses to start without a key; with none configured no Authorization header is sent.
    apiKey: config.api_key ?? 'unused',
    organization: null,
    project: null,
    webhookSecret: null,
    defaultHeaders: { ...(config.api_key === undefined ? { Authorization: null } : {}), ...config.headers },
    maxRetries: 0,
    timeout: NO_CLIENT_TIMEOUT_MS,
    logLevel: 'off',
    fetch,
  })
  const endpoint = `POST ${config.url.replace(/\/+$/, '')}/chat/completions`
  return {
    version: config.version,
    conversation: () => ({
      async answer(message, { history, signal }) {
        const request = {
          ...config.extra_body,
          model: config.model,
          messages: chatMessages(config.system, [...history, { role: 'user', content: message }]),
          stream: false,
        } as ChatCompletionCreateParamsNonStreaming
        let completion: ChatCompletion
        try {
          completion = await client.chat.completions.create(request, { signal })
        } catch (error) {
          throw explain(error, endpoint, signal)
        }
        return readCompletion(completion)
      },
    }),
  }
}

function chatMessages(system: string | undefined, dialogue: readonly Message[]): ChatCompletionMessageParam[] {
  const messages: ChatCompletionMessageParam[] = dialogue.map(({ role, content }) => ({ role, content }))
  return system === undefined ? messages : [{ role: 'system', content: system }, ...messages]
}

function readCompletion(completion: ChatCompletion): Answer {
  // A compatible server may answer 200 with something else entirely; say what came back.
  const choice = (completion as Partial<ChatCompletion> | null)?.choices?.[0]
  const text = choice?.message?.content
  if (typeof text !== 'string') {
    const why = choice === undefined ? 'no choices' : `no message content (finish_reason: ${choice.finish_reason ?? 'none'})`
    throw new Error(`the chat completion has ${why}. The answer was: ${excerpt(JSON.stringify(completion) ?? '')}`)
  }
  const usage = completion.usage
  if (usage === undefined || usage === null) return { text }
  return { text, usage: { input: usage.prompt_tokens, output: usage.completion_tokens } }
}

function explain(error: unknown, endpoint: string, signal: AbortSignal): unknown {
  if (signal.aborted) return signal.reason
  if (error instanceof APIConnectionError) {
    return new Error(`could not reach ${endpoint}: ${networkCause(error)}`, { cause: error })
  }
  if (error instanceof APIError && error.status !== undefined) {
    return new Error(`${endpoint} answered HTTP ${error.status}: ${excerpt(error.message.replace(/^\d+\s*/, ''))}`, { cause: error })
  }
  return error
}
