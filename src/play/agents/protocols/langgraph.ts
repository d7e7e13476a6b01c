import type { LangGraphAgentConfig } from '../../../records/config/config.ts'
import type { Fetch } from '../../../base/http/fetch.ts'
import type { Agent, Answer, AnswerContext, ToolCall, Usage } from '../agent.ts'
import { excerpt, fetchJson } from '../fetch-json.ts'
import { jsonData, openStream, sseEvents } from './http-stream.ts'
import { toolCall, withResult } from './tool-call.ts'
import { hasContext, mergedMap } from './context-slots.ts'
import { spoken } from '../answer-messages.ts'

/**
 * A graph served by LangGraph Platform / Agent Server (`protocol: langgraph`): a thread per
 * conversation (`POST /threads`), and a run per turn on it for the configured assistant that sends
 * only the new message: `runs/wait` answers with the thread's final state, `runs/stream` streams
 * message chunks (`messages-tuple`) and state snapshots (`values`). The answer is what the AI
 * messages this run added say, each a message of its own; tool calls and usage come from them too.
 */
export function createLangGraphAgent(config: LangGraphAgentConfig, fetch?: Fetch): Agent {
  const base = config.url.replace(/\/+$/, '')
  return {
    version: config.version,
    async conversation({ signal }) {
      const thread = (await fetchJson(`${base}/threads`, { headers: config.headers, body: {}, signal, fetch })) as { thread_id?: unknown }
      if (typeof thread?.thread_id !== 'string') throw new Error(`POST ${base}/threads answered without a thread_id: ${excerpt(JSON.stringify(thread))}`)
      const runs = `${base}/threads/${encodeURIComponent(thread.thread_id)}/runs`
      return {
        async answer(message, context) {
          const run = {
            assistant_id: config.assistant_id,
            input: { messages: [{ role: 'user', content: message }] },
            ...runSettings(config, context.context),
          }
          const state = config.stream ? await streamedRun(`${runs}/stream`, run, config, context, fetch) : await fetchJson(`${runs}/wait`, { headers: config.headers, body: run, signal: context.signal, fetch })
          return answerFrom(state, `POST ${runs}/${config.stream ? 'stream' : 'wait'}`)
        },
      }
    },
  }
}

/**
 * convy.yml's `config` and `context`, with the attempt's context in one of LangGraph's two slots for
 * it: `config.configurable` (every LangGraph), or the run's `context` (LangGraph 0.6+) when the agent's
 * entry sends one; the server refuses both at once. The attempt's keys win over convy.yml's.
 */
function runSettings(config: LangGraphAgentConfig, context: Readonly<Record<string, unknown>>): Record<string, unknown> {
  if (!hasContext(context)) return { ...(config.config ? { config: config.config } : {}), ...(config.context ? { context: config.context } : {}) }
  if (config.context) return { ...(config.config ? { config: config.config } : {}), context: { ...config.context, ...context } }
  return { config: { ...config.config, configurable: mergedMap(config.config?.['configurable'], context) } }
}

async function streamedRun(url: string, run: Record<string, unknown>, config: LangGraphAgentConfig, context: AnswerContext, fetch: Fetch | undefined): Promise<unknown> {
  const stream = await openStream(url, { headers: config.headers, body: { ...run, stream_mode: ['values', 'messages-tuple'] }, signal: context.signal, fetch })
  let values: unknown
  for await (const event of sseEvents(stream.chunks)) {
    const data = jsonData(event)
    if (event.event === 'error') throw new Error(`${stream.what}: the run failed: ${graphError(data) ?? excerpt(event.data)}`)
    if (event.event === 'values') values = data
    if (event.event === 'messages' && Array.isArray(data) && isAiMessage(data[0]) && textOf(data[0]) !== '') context.firstToken?.()
  }
  if (values === undefined) throw new Error(`the stream from ${stream.what} ended without the thread's state: the answer was cut short`)
  return values
}

interface GraphMessage {
  type?: string
  content?: unknown
  tool_calls?: { name?: unknown; args?: unknown; id?: unknown }[]
  /** On a tool message: the call it answers. */
  tool_call_id?: unknown
  usage_metadata?: { input_tokens?: unknown; output_tokens?: unknown }
}

function answerFrom(state: unknown, what: string): Answer {
  const failure = graphError((state as { __error__?: unknown } | null)?.__error__)
  if (failure !== undefined) throw new Error(`${what}: the run failed: ${failure}`)
  const messages = (state as { messages?: unknown } | null)?.messages
  if (!Array.isArray(messages)) throw new Error(`${what} answered a state without messages: ${excerpt(JSON.stringify(state) ?? '')}`)
  // This run's messages: everything after the message it was sent.
  const lastHuman = messages.map((m: GraphMessage) => m?.type).lastIndexOf('human')
  const ran = messages.slice(lastHuman + 1) as GraphMessage[]
  const added = ran.filter(isAiMessage)
  const last = added.at(-1)
  if (last === undefined) throw new Error(`${what}: the run added no AI message. The state was: ${excerpt(JSON.stringify(state))}`)
  // A tool message carries the tool's result, for the call with its tool_call_id.
  const results = new Map(ran.flatMap((m) => (m?.type === 'tool' && typeof m.tool_call_id === 'string' ? [[m.tool_call_id, m.content] as const] : [])))
  const calls: ToolCall[] = added.flatMap((m) =>
    (m.tool_calls ?? []).flatMap((c) => {
      if (typeof c.name !== 'string') return []
      const call = toolCall(c.name, c.args)
      return [typeof c.id === 'string' && results.has(c.id) ? withResult(call, results.get(c.id)) : call]
    }),
  )
  const usage = sumUsage(added)
  // Every AI message of the run that says something is a message of the answer (one before a tool
  // call, one after it); a run whose AI messages say nothing answers the last one's empty text.
  const said = added.map(textOf).filter((text) => text !== '')
  return { ...spoken(said.length > 0 ? said : [textOf(last)]), ...(usage ? { usage } : {}), ...(calls.length > 0 ? { toolCalls: calls } : {}) }
}

function isAiMessage(message: unknown): message is GraphMessage {
  const type = (message as GraphMessage | null)?.type
  return type === 'ai' || type === 'AIMessageChunk'
}

/** LangChain content: a string, or blocks of which the text ones count. */
function textOf(message: GraphMessage): string {
  if (typeof message.content === 'string') return message.content
  if (!Array.isArray(message.content)) return ''
  return message.content.flatMap((block: { type?: unknown; text?: unknown }) => (block?.type === 'text' && typeof block.text === 'string' ? [block.text] : [])).join('')
}

function sumUsage(messages: readonly GraphMessage[]): Usage | undefined {
  const counted = messages.flatMap((m) => (m.usage_metadata ? [m.usage_metadata] : []))
  if (counted.length === 0) return undefined
  const total = (key: 'input_tokens' | 'output_tokens') => counted.reduce((sum, u) => sum + (typeof u[key] === 'number' ? u[key] : 0), 0)
  return { input: total('input_tokens'), output: total('output_tokens') }
}

/** `{error, message}` from a failed run, in words; undefined when there is none. */
function graphError(error: unknown): string | undefined {
  if (error === null || typeof error !== 'object') return undefined
  const { error: name, message } = error as { error?: unknown; message?: unknown }
  if (name === undefined && message === undefined) return undefined
  return excerpt([name, message].filter((part) => typeof part === 'string' && part !== '').join(': '))
}
