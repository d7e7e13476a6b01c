import { randomUUID } from 'node:crypto'
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { TestCertificates } from './certificates.ts'
import { botAnswer } from './agent-server.ts'
import { misbehave, misbehaviourIn, pause, pieces, readJson, sendJson, serve, startEvents, words, writeEvent } from './serve.ts'

/**
 * A stand-in for LangGraph Platform's Agent Server (`langgraph dev`), with the shapes captured from
 * `@langchain/langgraph-api` in /work/shared/notes/agents.md §5. The real server is 144 MB of
 * dependencies, so this fake is what CI runs; a suite against the real one is left optional.
 *
 * - `POST /threads` → `{thread_id, …, status: "idle"}`.
 * - `POST /threads/{id}/runs/wait` `{assistant_id, input: {messages}}` → the thread's state values.
 * - `POST /threads/{id}/runs/stream` with `stream_mode: ["values", "messages-tuple"]` → SSE with
 *   `metadata`, `messages` (`[chunk, metadata]` per token) and `values` events.
 * - An unknown assistant is a plain-text 404, an unknown thread a JSON 404.
 *
 * The graph answers as the support bot of agent-server.ts from the thread's human messages; an
 * order number of 3+ digits makes it call `get_order` (an AI message with `tool_calls`, then a tool
 * message) before it answers. AI messages carry `usage_metadata` (words read and written).
 * Markers (serve.ts): `[error]` fails the run (`__error__` in a 200 for wait, `event: error` in a
 * stream), `[drop]` and `[hang]` as usual.
 */
export interface FakeLangGraphServer {
  url: string
  requests: { path: string; body: Record<string, unknown> }[]
  close(): Promise<void>
}

type Message = Record<string, unknown> & { type: string; content: string }

/** `preamble`: what the AI message that calls `get_order` says (empty by default), as a graph that announces its lookup does. */
export async function startFakeLangGraphServer(options: { assistant?: string; tls?: TestCertificates; pieceMs?: number; preamble?: string } = {}): Promise<FakeLangGraphServer> {
  const assistant = options.assistant ?? 'agent'
  const threads = new Map<string, Message[]>()
  const requests: FakeLangGraphServer['requests'] = []

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const body = await readJson(req)
    const path = req.url ?? '/'
    requests.push({ path, body })
    if (req.method === 'POST' && path === '/threads') {
      const id = randomUUID()
      threads.set(id, [])
      const now = new Date().toISOString()
      return sendJson(res, 200, { thread_id: id, created_at: now, updated_at: now, metadata: {}, status: 'idle', config: {}, values: null })
    }
    const run = /^\/threads\/([^/]+)\/runs\/(wait|stream)$/.exec(path)
    if (req.method !== 'POST' || !run) return sendJson(res, 404, { detail: 'Not Found' })
    const thread = threads.get(run[1]!)
    if (!thread) return sendJson(res, 404, { detail: `Thread with ID ${run[1]} not found` })
    if (body['assistant_id'] !== assistant) return void res.writeHead(404, { 'content-type': 'text/plain' }).end(`Assistant "${String(body['assistant_id'])}" not found`)
    const input = (body['input'] as { messages: { content: string }[] }).messages.map((m): Message => ({ type: 'human', content: m.content, id: randomUUID() }))
    const said = [...thread, ...input].filter((m) => m.type === 'human').map((m) => m.content)
    const misbehaviour = misbehaviourIn(said.at(-1) ?? '')
    const added = graphTurn(said, options.preamble ?? '')
    if (run[2] === 'wait') {
      if (misbehave(res, misbehaviour)) return
      if (misbehaviour === 'error') return sendJson(res, 200, { __error__: { error: 'ValueError', message: 'the model crashed' } })
      thread.push(...input, ...added)
      return sendJson(res, 200, { messages: thread })
    }
    startEvents(res)
    writeEvent(res, { run_id: randomUUID(), attempt: 1 }, 'metadata')
    writeEvent(res, { messages: [...thread, ...input] }, 'values')
    const answer = added.at(-1)!
    for (const [i, piece] of pieces(answer.content).entries()) {
      if (i > 0) await pause(options.pieceMs ?? 0)
      writeEvent(res, [{ type: 'AIMessageChunk', content: piece, id: answer['id'], tool_calls: [], tool_call_chunks: [] }, { langgraph_node: 'agent', langgraph_step: 1 }], 'messages')
      if (i === 0 && misbehaviour === 'error') {
        writeEvent(res, { error: 'ValueError', message: 'the model crashed' }, 'error')
        return void res.end()
      }
      if (i === 0 && misbehave(res, misbehaviour)) return
    }
    thread.push(...input, ...added)
    writeEvent(res, { messages: thread }, 'values')
    res.end()
  }

  const served = await serve((req, res) => void handle(req, res).catch((error: unknown) => sendJson(res, 500, { detail: String(error) })), options.tls)
  return { url: served.url, requests, close: served.close }
}

function graphTurn(said: readonly string[], preamble: string): Message[] {
  const orderId = /#?(\d{3,})/.exec(said.at(-1) ?? '')?.[1]
  const answer = botAnswer(said)
  const read = words(said.join(' '))
  const usage = (input: number, output: number) => ({ input_tokens: input, output_tokens: output, total_tokens: input + output })
  const ai = (content: string, extra: Record<string, unknown>): Message => ({ type: 'ai', content, id: randomUUID(), tool_calls: [], invalid_tool_calls: [], ...extra })
  const messages: Message[] = []
  if (orderId) {
    const callId = `call_${randomUUID().slice(0, 8)}`
    messages.push(ai(preamble, { tool_calls: [{ name: 'get_order', args: { id: orderId }, id: callId, type: 'tool_call' }], usage_metadata: usage(read, 0) }))
    messages.push({ type: 'tool', content: JSON.stringify({ id: orderId, status: 'shipped' }), name: 'get_order', tool_call_id: callId, id: randomUUID() })
  }
  messages.push(ai(answer, { usage_metadata: usage(orderId ? 0 : read, words(answer)) }))
  return messages
}
