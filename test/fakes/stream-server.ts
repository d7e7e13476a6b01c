import type { IncomingMessage, ServerResponse } from 'node:http'
import type { TestCertificates } from './certificates.ts'
import { botAnswer } from './agent-server.ts'
import { misbehave, misbehaviourIn, pause, pieces, readJson, sendJson, serve, startEvents, words, writeEvent } from './serve.ts'

/**
 * Agents with streaming APIs of their own, the kinds the generic `sse` and `ndjson` protocols are for.
 *
 * - `POST /chat/stream` (SSE, stateful): `{session_id, message}`. A session id the server does not
 *   know starts a new session under an id of the server's own, given back in the `done` event; the
 *   client must send that id to continue. Events: `event: tool` `{tool: {name, arguments}}` (JSON
 *   text arguments), `event: token` `{delta}`, then `event: done` `{session_id, usage}`.
 *   Failure: `event: error` `{message}`.
 * - `POST /api/chat` (NDJSON, stateless, as Ollama answers): `{model, messages}`; lines
 *   `{message: {role, content}, done: false}`, a tool call as `message.tool_calls[].function`,
 *   and a last line `{done: true, prompt_eval_count, eval_count}`. Failure: a line `{error}`.
 *
 * The bot is the one of agent-server.ts; markers as in serve.ts.
 */
export interface FakeStreamServer {
  url: string
  /** Every request, in order: the path with its query, the headers and the JSON body. */
  requests: { url: string; headers: IncomingMessage['headers']; body: Record<string, unknown> }[]
  close(): Promise<void>
}

export async function startFakeStreamServer(options: { tls?: TestCertificates; pieceMs?: number } = {}): Promise<FakeStreamServer> {
  const sessions = new Map<string, string[]>()
  let sessionCount = 0
  const requests: FakeStreamServer['requests'] = []

  async function sse(body: Record<string, unknown>, res: ServerResponse): Promise<void> {
    const known = typeof body['session_id'] === 'string' && sessions.has(body['session_id'])
    const session = known ? (body['session_id'] as string) : `srv-${++sessionCount}`
    const said = [...(sessions.get(session) ?? []), String(body['message'])]
    const answer = botAnswer(said)
    const misbehaviour = misbehaviourIn(said.at(-1)!)
    startEvents(res)
    const orderId = /#?(\d{3,})/.exec(said.at(-1)!)?.[1]
    if (orderId) writeEvent(res, { tool: { name: 'get_order', arguments: JSON.stringify({ id: orderId }) } }, 'tool')
    for (const [i, piece] of pieces(answer).entries()) {
      if (i > 0) await pause(options.pieceMs ?? 0)
      writeEvent(res, { delta: piece }, 'token')
      if (i === 0 && misbehaviour === 'error') {
        writeEvent(res, { message: 'the model crashed' }, 'error')
        return void res.end()
      }
      if (i === 0 && misbehave(res, misbehaviour)) return
    }
    sessions.set(session, said)
    writeEvent(res, { session_id: session, usage: { input_tokens: words(said.join(' ')), output_tokens: words(answer) } }, 'done')
    res.end()
  }

  async function ndjson(body: Record<string, unknown>, res: ServerResponse): Promise<void> {
    const messages = body['messages'] as { role: string; content: string }[]
    const said = messages.filter((m) => m.role === 'user').map((m) => m.content)
    const answer = botAnswer(said)
    const misbehaviour = misbehaviourIn(said.at(-1) ?? '')
    const line = (value: unknown) => res.write(`${JSON.stringify(value)}\n`)
    const message = (content: string, extra: Record<string, unknown> = {}) => ({ model: body['model'], created_at: new Date().toISOString(), message: { role: 'assistant', content, ...extra }, done: false })
    startEvents(res, 'application/x-ndjson')
    const orderId = /#?(\d{3,})/.exec(said.at(-1) ?? '')?.[1]
    if (orderId) line(message('', { tool_calls: [{ function: { name: 'get_order', arguments: { id: orderId } } }] }))
    for (const [i, piece] of pieces(answer).entries()) {
      if (i > 0) await pause(options.pieceMs ?? 0)
      line(message(piece))
      if (i === 0 && misbehaviour === 'error') {
        line({ error: 'the model crashed' })
        return void res.end()
      }
      if (i === 0 && misbehave(res, misbehaviour)) return
    }
    line({ model: body['model'], done: true, done_reason: 'stop', prompt_eval_count: words(messages.map((m) => m.content).join(' ')), eval_count: words(answer) })
    res.end()
  }

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const body = await readJson(req)
    requests.push({ url: req.url ?? '/', headers: req.headers, body })
    const path = (req.url ?? '/').split('?')[0]
    if (path === '/chat/stream') return sse(body, res)
    if (path === '/api/chat') return ndjson(body, res)
    sendJson(res, 404, { error: `no route ${req.url}` })
  }
  const served = await serve((req, res) => void handle(req, res).catch((error: unknown) => sendJson(res, 500, { error: String(error) })), options.tls)
  return { url: served.url, requests, close: served.close }
}
