import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

/**
 * A fake agent for tests: a real HTTP server on 127.0.0.1 that behaves like a small shop's support
 * bot, over two APIs.
 *
 * - `POST /api/chat` (JSON): `{ session_id, message }` answers `{ data: { answer, usage: {
 *   input_tokens, output_tokens } }, session_id, turn }`. The bot remembers each session's messages;
 *   a body with a `history` array ([{role, content}], the new message last) is answered from that
 *   history instead, as a stateless agent would.
 * - `POST /v1/chat/completions` (OpenAI-compatible, non-streaming): answered from `messages`.
 * - `GET /health`: 200, for wait-for checks.
 *
 * The bot: "my name is Ann" is remembered and used in later answers; a message about an order,
 * refund or delivery makes it ask for the order number, and a number of 3+ digits (then or later)
 * gets "Order #1234 is on its way…"; "hello" gets a greeting, "thanks" a "you're welcome".
 * Usage counts words: input = the words of the user's messages it read, output = the answer's.
 *
 * Failures: `failNext(kind, times)` or a message containing `[fail:500]`, `[fail:not-json]`,
 * `[fail:missing-field]` or `[fail:hang]`. A failed request is not remembered by the session.
 */
export type Failure = '500' | 'not-json' | 'missing-field' | 'hang'

export interface FakeAgentServerOptions {
  /** Milliseconds before each answer; also settable later through `latencyMs`. */
  latencyMs?: number
  /** When set, POSTs need `Authorization: Bearer <token>`, else 401. */
  token?: string
}

export interface RecordedRequest {
  method: string
  path: string
  /** The path with its query, as sent. */
  url: string
  headers: IncomingHttpHeaders
  /** Parsed JSON, or the raw text when it was not JSON. */
  body: unknown
}

export interface FakeAgentServer {
  /** Base URL, no trailing slash: `${url}/api/chat`, `${url}/v1`. */
  url: string
  requests: RecordedRequest[]
  latencyMs: number
  failNext(failure: Failure, times?: number): void
  /** The user messages each session has sent so far. */
  sessions: ReadonlyMap<string, readonly string[]>
  close(): Promise<void>
}

interface ChatMessage {
  role: string
  content: string
}

export async function startFakeAgentServer(options: FakeAgentServerOptions = {}): Promise<FakeAgentServer> {
  const requests: RecordedRequest[] = []
  const sessions = new Map<string, string[]>()
  const queuedFailures: Failure[] = []

  const server = createServer((req, res) => {
    void handle(req, res).catch((error: unknown) => send(res, 500, { error: String(error) }))
  })

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const raw = await readBody(req)
    const body = parseJson(raw)
    const path = (req.url ?? '/').split('?')[0] ?? '/'
    requests.push({ method: req.method ?? 'GET', path, url: req.url ?? '/', headers: req.headers, body: body === undefined ? raw : body })
    if (req.method === 'GET' && path === '/health') return send(res, 200, { ok: true })
    if (options.token !== undefined && req.headers.authorization !== `Bearer ${options.token}`) {
      return send(res, 401, { error: { message: 'Invalid API key', type: 'invalid_request_error', code: 'invalid_api_key' } })
    }
    if (fake.latencyMs > 0) await new Promise((done) => setTimeout(done, fake.latencyMs))
    if (req.method === 'POST' && path === '/api/chat') return jsonChat(body, res)
    if (req.method === 'POST' && path === '/v1/chat/completions') return openaiChat(body, res)
    send(res, 404, { error: `no route for ${req.method} ${path}` })
  }

  function jsonChat(body: unknown, res: ServerResponse): void {
    const { session_id: session, message, history } = (body ?? {}) as { session_id?: unknown; message?: unknown; history?: unknown }
    const stateless = Array.isArray(history)
    const latest = stateless ? lastUserMessage(history as ChatMessage[]) : message
    if (typeof latest !== 'string') return send(res, 400, { error: 'expected a string `message` (or a `history` ending with a user message)' })
    if (!stateless && typeof session !== 'string') return send(res, 400, { error: 'expected a string `session_id`' })
    const failure = failureFor(latest)
    if (failure !== undefined) return fail(failure, res, () => ({ data: { usage: { input_tokens: 1, output_tokens: 1 } } }))
    const said = stateless ? userMessages(history as ChatMessage[]) : remember(session as string, latest)
    const answer = botAnswer(said)
    const usage = { input_tokens: countWords(stateless ? said.join(' ') : latest), output_tokens: countWords(answer) }
    send(res, 200, { data: { answer, usage }, session_id: session ?? null, turn: said.length })
  }

  function openaiChat(body: unknown, res: ServerResponse): void {
    const { model, messages, stream } = (body ?? {}) as { model?: unknown; messages?: unknown; stream?: unknown }
    if (stream === true) return send(res, 400, { error: { message: 'this fake does not stream', type: 'invalid_request_error' } })
    if (typeof model !== 'string' || !Array.isArray(messages)) {
      return send(res, 400, { error: { message: 'expected `model` and `messages`', type: 'invalid_request_error' } })
    }
    const said = userMessages(messages as ChatMessage[])
    const failure = failureFor(said.at(-1) ?? '')
    if (failure !== undefined) return fail(failure, res, () => ({ id: 'chatcmpl-fake', object: 'chat.completion', model, choices: [] }))
    const answer = botAnswer(said)
    const promptTokens = countWords((messages as ChatMessage[]).map((m) => m.content).join(' '))
    send(res, 200, {
      id: `chatcmpl-${requests.length}`,
      object: 'chat.completion',
      created: Math.floor(Date.now() / 1000),
      model,
      choices: [{ index: 0, message: { role: 'assistant', content: answer, refusal: null }, logprobs: null, finish_reason: 'stop' }],
      usage: { prompt_tokens: promptTokens, completion_tokens: countWords(answer), total_tokens: promptTokens + countWords(answer) },
    })
  }

  function remember(session: string, message: string): string[] {
    const said = [...(sessions.get(session) ?? []), message]
    sessions.set(session, said)
    return said
  }

  function failureFor(message: string): Failure | undefined {
    return queuedFailures.shift() ?? (/\[fail:(500|not-json|missing-field|hang)\]/.exec(message)?.[1] as Failure | undefined)
  }

  function fail(failure: Failure, res: ServerResponse, withoutAnswer: () => unknown): void {
    if (failure === 'hang') return // never answers; close() ends the connection
    if (failure === '500') return send(res, 500, { error: { message: 'the bot crashed', type: 'server_error' } })
    if (failure === 'missing-field') return send(res, 200, withoutAnswer())
    res.writeHead(200, { 'content-type': 'text/html' }).end('<html><body><h1>502 Bad Gateway</h1></body></html>')
  }

  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready))
  const { port } = server.address() as AddressInfo
  const fake: FakeAgentServer = {
    url: `http://127.0.0.1:${port}`,
    requests,
    latencyMs: options.latencyMs ?? 0,
    sessions,
    failNext(failure, times = 1) {
      for (let i = 0; i < times; i++) queuedFailures.push(failure)
    },
    close: () =>
      new Promise<void>((closed) => {
        server.closeAllConnections()
        server.close(() => closed())
      }),
  }
  return fake
}

export function botAnswer(userMessages: readonly string[]): string {
  const latest = userMessages.at(-1) ?? ''
  const all = userMessages.join('\n')
  const name = [...all.matchAll(/my name is (\p{L}+)/giu)].at(-1)?.[1]
  const you = name === undefined ? '' : `, ${name}`
  const aboutOrder = /\b(order|refund|delivery|package)\b/i.test(all)
  const orderNumber = [...all.matchAll(/#?(\d{3,})/g)].at(-1)?.[1]
  if (/\bthanks?\b|\bthank you\b/i.test(latest)) return `You're welcome${you}!`
  if (aboutOrder && orderNumber !== undefined) return `Thanks${you}. Order #${orderNumber} is on its way and should arrive in 2 days.`
  if (aboutOrder) return `I can help with your order${you}. What is your order number?`
  if (/\b(hello|hi|hey)\b|my name is/i.test(latest)) return `Hello${you}! How can I help you today?`
  return `Sorry, I can only help with orders. You said: ${latest}`
}

function countWords(text: string): number {
  return text.split(/\s+/).filter(Boolean).length
}

function userMessages(messages: readonly ChatMessage[]): string[] {
  return messages.filter((m) => m?.role === 'user' && typeof m.content === 'string').map((m) => m.content)
}

function lastUserMessage(messages: readonly ChatMessage[]): string | undefined {
  return userMessages(messages).at(-1)
}

async function readBody(req: IncomingMessage): Promise<string> {
  let text = ''
  for await (const chunk of req) text += String(chunk)
  return text
}

function parseJson(text: string): unknown {
  try {
    return text === '' ? undefined : (JSON.parse(text) as unknown)
  } catch {
    return undefined
  }
}

function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body))
}
