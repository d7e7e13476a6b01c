import type OpenAI from 'openai'
import type { ChatCompletion, ChatCompletionChunk, ChatCompletionCreateParams, ChatCompletionMessageParam } from 'openai/resources/chat/completions'
import type { OpenAIChatAgentConfig } from '../../../records/config/config.ts'
import type { Fetch } from '../../../base/http/fetch.ts'
import type { Agent, Answer, AnswerContext, Message, ToolCall, Usage } from '../agent.ts'
import { excerpt } from '../fetch-json.ts'
import { endpointOf, explain, openaiClient } from './openai-client.ts'
import { toolCall } from './tool-call.ts'
import { contextSystemText, hasContext } from './context-slots.ts'

/**
 * An agent that is itself OpenAI-compatible (`protocol: openai-chat`): the protocol is stateless, so
 * every turn resends the whole dialogue, the configured system message first. With `stream: true`
 * the answer comes as server-sent chunks: text pieces, tool calls in fragments joined by their index,
 * and usage in the last chunk that has it (`stream_options.include_usage`).
 */

/** `fetch`: the HTTP client; default: the built-in one. */
export function createOpenAIChatAgent(config: OpenAIChatAgentConfig, fetch?: Fetch): Agent {
  const client = openaiClient(config, fetch)
  const endpoint = endpointOf(config, 'chat/completions')
  return {
    version: config.version,
    conversation: () => ({
      async answer(message, context) {
        const request = {
          ...config.extra_body,
          model: config.model,
          messages: chatMessages(systemText(config.system, context.context), [...context.history, { role: 'user', content: message }]),
        }
        try {
          return config.stream ? await streamedAnswer(client, request, context, endpoint) : readCompletion(await client.chat.completions.create({ ...request, stream: false }, { signal: context.signal }))
        } catch (error) {
          throw explain(error, endpoint, context.signal)
        }
      },
    }),
  }
}

type Request = Omit<ChatCompletionCreateParams, 'stream'>

/**
 * The attempt's context reaches a Chat Completions agent as a system message: the one slot every
 * compatible server accepts and hands to its model. OpenAI's own `metadata` is refused without
 * `store: true`, and a field of our own could be refused by a server that checks the body against
 * OpenAI's schema. With `system` configured the context follows it in the same message, so servers
 * (and chat templates) that take one system message, first, still get one.
 */
function systemText(system: string | undefined, context: Readonly<Record<string, unknown>>): string | undefined {
  if (!hasContext(context)) return system
  return system === undefined ? contextSystemText(context) : `${system}\n\n${contextSystemText(context)}`
}

function chatMessages(system: string | undefined, dialogue: readonly Message[]): ChatCompletionMessageParam[] {
  const messages: ChatCompletionMessageParam[] = dialogue.map(({ role, content }) => ({ role, content }))
  return system === undefined ? messages : [{ role: 'system', content: system }, ...messages]
}

function readCompletion(completion: ChatCompletion): Answer {
  // A compatible server may answer 200 with something else entirely; say what came back.
  const choice = (completion as Partial<ChatCompletion> | null)?.choices?.[0]
  const calls = (choice?.message?.tool_calls ?? []).flatMap((call) => (call.type === 'function' ? [toolCall(call.function.name, call.function.arguments)] : []))
  const text = choice?.message?.content ?? (calls.length > 0 ? '' : undefined)
  if (typeof text !== 'string') {
    const why = choice === undefined ? 'no choices' : `no message content (finish_reason: ${choice.finish_reason ?? 'none'})`
    throw new Error(`the chat completion has ${why}. The answer was: ${excerpt(JSON.stringify(completion) ?? '')}`)
  }
  return answer(text, calls, completion.usage)
}

async function streamedAnswer(client: OpenAI, request: Request, context: AnswerContext, endpoint: string): Promise<Answer> {
  // Usage is asked for, unless extra_body says otherwise (a server that rejects the option).
  const streamOptions = { include_usage: true, ...(request as { stream_options?: object }).stream_options }
  const stream = await client.chat.completions.create({ ...request, stream: true, stream_options: streamOptions }, { signal: context.signal })
  let text = ''
  let finished = false
  // OpenAI sends `usage: null` on every chunk but the last; compatible servers may put it elsewhere.
  let usage: ChatCompletionChunk['usage']
  const fragments = new Map<number, { name: string; arguments: string }>()
  for await (const chunk of stream) {
    usage = chunk.usage ?? usage
    const choice = chunk.choices?.find((c) => c.index === 0)
    if (!choice) continue
    if (choice.delta?.content) {
      context.firstToken?.()
      text += choice.delta.content
    }
    for (const fragment of choice.delta?.tool_calls ?? []) {
      const call = fragments.get(fragment.index) ?? { name: '', arguments: '' }
      call.name += fragment.function?.name ?? ''
      call.arguments += fragment.function?.arguments ?? ''
      fragments.set(fragment.index, call)
    }
    if (choice.finish_reason) finished = true
  }
  // A stream that ends cleanly without a finish_reason was cut short (a proxy, a crashed worker).
  if (!finished) throw new Error(`the stream from ${endpoint} ended before the answer was finished (no finish_reason), after ${text.length} characters`)
  const calls = [...fragments.entries()].sort(([a], [b]) => a - b).map(([, call]) => toolCall(call.name, call.arguments))
  return answer(text, calls, usage)
}

function answer(text: string, calls: ToolCall[], usage: { prompt_tokens: number; completion_tokens: number } | null | undefined): Answer {
  const counted: Usage | undefined = usage ? { input: usage.prompt_tokens, output: usage.completion_tokens } : undefined
  return { text, ...(counted ? { usage: counted } : {}), ...(calls.length > 0 ? { toolCalls: calls } : {}) }
}
