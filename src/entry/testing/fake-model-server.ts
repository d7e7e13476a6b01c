import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo, Socket } from 'node:net'
import type { ClaimDecision, DialogueLine, JudgeRequest, SimulatedUserRequest, UserReviewFindings, UserReviewRequest } from '../../play/conversation/dialogue.ts'
import { readJudgeRequest } from '../../play/judge/judge-prompt.ts'
import { readUserReviewRequest } from '../../play/review/user-review-prompt.ts'
import { STOP_WORD, readSimulatedUserRequest } from '../../play/simulated-user/simulated-user-prompt.ts'

/**
 * A fake OpenAI-compatible model server for tests: a real HTTP server on 127.0.0.1 that the real
 * `openai` client talks to. It plays convy-ci's simulated user, judge and reviewer by rule (it reads the
 * requests convy-ci builds), and answers with faults on demand: rate limits, server errors, garbage,
 * dropped connections, answers too slow for the timeout.
 *
 *   const server = await startFakeModelServer({ user: scriptedUser(['Hi', 'Thanks']), judge: judgeByRule(() => true) })
 *   server.enqueue(fakeReply.rateLimited(1))   // the next request gets a 429 with Retry-After: 1
 *   // … point convy-ci at server.url …
 *   await server.close()
 */

export interface FakeUsage {
  inputTokens: number
  outputTokens: number
}

/** What the server answers to one chat completion request. Build these with `fakeReply`. */
export type FakeReply = { delayMs?: number } & (
  | { kind: 'answer'; text: string | null; refusal?: string; finishReason?: string; usage?: FakeUsage; toolCalls?: FakeToolCall[] }
  | { kind: 'error'; status: number; message: string; headers?: Record<string, string> }
  /** 200 with a body that is not JSON. */
  | { kind: 'garbage' }
  /** 200 with JSON that is not a chat completion. */
  | { kind: 'wrong_shape' }
  /** The connection is closed without an answer. */
  | { kind: 'drop' }
  /** Headers and half a body, then nothing until the client gives up. */
  | { kind: 'stall' }
)

/** A function call the fake model makes: `arguments` is sent as JSON text, as OpenAI sends it. */
export interface FakeToolCall {
  name: string
  arguments: unknown
}

export const fakeReply = {
  text: (text: string, usage?: FakeUsage): FakeReply => ({ kind: 'answer', text, usage }),
  /** An answer that calls these functions (`finish_reason: tool_calls`), for an agent's own model. */
  toolCalls: (calls: readonly FakeToolCall[]): FakeReply => ({ kind: 'answer', text: null, finishReason: 'tool_calls', toolCalls: [...calls] }),
  refusal: (refusal: string): FakeReply => ({ kind: 'answer', text: null, refusal }),
  error: (status: number, message: string, headers?: Record<string, string>): FakeReply => ({ kind: 'error', status, message, headers }),
  rateLimited: (retryAfterSeconds?: number): FakeReply => ({
    kind: 'error',
    status: 429,
    message: 'Rate limit reached',
    headers: retryAfterSeconds === undefined ? {} : { 'retry-after': String(retryAfterSeconds) },
  }),
  serverError: (status = 500): FakeReply => ({ kind: 'error', status, message: 'The server had an error' }),
  garbage: (): FakeReply => ({ kind: 'garbage' }),
  wrongShape: (): FakeReply => ({ kind: 'wrong_shape' }),
  drop: (): FakeReply => ({ kind: 'drop' }),
  stall: (): FakeReply => ({ kind: 'stall' }),
  /** Any reply, sent only after `ms`: past a client's timeout, it is a timeout. */
  slow: (ms: number, reply: FakeReply): FakeReply => ({ ...reply, delayMs: ms }),
}

/** A chat completion request as the server received it, with what it was recognised as. */
export interface FakeChatRequest {
  model: string
  messages: unknown[]
  body: Record<string, unknown>
  /** Set when the request is convy-ci's simulated user asking for a line. */
  user?: SimulatedUserRequest
  /** Set when the request is convy-ci's judge asking for decisions. */
  judge?: JudgeRequest
  /** Set when the request is convy-ci's reviewer of a failed attempt's simulated user. */
  review?: UserReviewRequest
}

export interface RecordedRequest {
  method: string
  path: string
  headers: Record<string, string | string[] | undefined>
  /** The parsed JSON body, or the raw text when it is not JSON. */
  body: unknown
  kind: 'user' | 'judge' | 'review' | 'other'
  /** When it arrived (Date.now()), to check pauses between tries. */
  at: number
  /** Which connection it came on: 1 for the server's first, 2 for the next, and so on. */
  connection: number
}

export interface FakeModelServerOptions {
  /** The simulated user's next line. Default: says "Hello!", then stops. */
  user?: (request: SimulatedUserRequest) => string | Promise<string>
  /** One decision per claim. Default: every claim passes. */
  judge?: (request: JudgeRequest) => ClaimDecision[] | Promise<ClaimDecision[]>
  /** The review of a failed attempt's simulated user. Default: no mistake. */
  review?: (request: UserReviewRequest) => UserReviewFindings | Promise<UserReviewFindings>
  /** Asked first for every chat request; undefined falls through to `user`, `judge` and `review`. */
  handler?: (request: FakeChatRequest) => FakeReply | undefined | Promise<FakeReply | undefined>
  /** Added before every answer, in milliseconds. */
  latencyMs?: number
  /** Answer `response_format: json_schema` with a 400, as servers without structured output do. */
  rejectJsonSchema?: boolean
  /** Require `Authorization: Bearer <apiKey>`; others get a 401 that, like OpenAI's, quotes the key. */
  apiKey?: string
  /** Listed by GET /v1/models. */
  models?: string[]
}

export interface FakeModelServer {
  /** The base URL, ending in /v1. */
  url: string
  /** Every request received, in order. */
  requests: RecordedRequest[]
  /** The next requests get these replies, in order, before any rule is asked. */
  enqueue(...replies: FakeReply[]): void
  /** Forgets queued replies and recorded requests, for a server shared by several tests. */
  reset(): void
  close(): Promise<void>
}

/** The simulated user's lines in order, then `###STOP###`; each conversation follows its own dialogue. */
export function scriptedUser(lines: readonly string[]): (request: SimulatedUserRequest) => string {
  return ({ dialogue }) => lines[dialogue.filter((line) => line.role === 'user').length] ?? STOP_WORD
}

/** A judge that decides each claim with `rule`; true/false get a stock reason. */
export function judgeByRule(rule: (claim: string, dialogue: readonly DialogueLine[]) => boolean | ClaimDecision): (request: JudgeRequest) => ClaimDecision[] {
  return ({ claims, dialogue }) =>
    claims.map((claim) => {
      const decision = rule(claim, dialogue)
      return typeof decision === 'boolean' ? { pass: decision, reason: decision ? 'fake judge: holds' : 'fake judge: does not hold' } : decision
    })
}

/** The judge's answer as convy-ci asks for it: one entry per decision, each with its claim's number. */
export function judgeAnswer(decisions: readonly ClaimDecision[]): string {
  return JSON.stringify({ claims: decisions.map((decision, i) => ({ claim: i + 1, reason: decision.reason, pass: decision.pass })) })
}

export async function startFakeModelServer(options: FakeModelServerOptions = {}): Promise<FakeModelServer> {
  const requests: RecordedRequest[] = []
  const queue: FakeReply[] = []
  const user = options.user ?? scriptedUser(['Hello!'])
  const judge = options.judge ?? judgeByRule(() => true)
  const review = options.review ?? (() => ({ mistakes: [], reason: 'fake reviewer: the simulated user made no mistake', decided: false }))

  async function chatReply(request: FakeChatRequest): Promise<FakeReply> {
    const responseFormat = (request.body['response_format'] as { type?: unknown } | undefined)?.type
    if (options.rejectJsonSchema && responseFormat === 'json_schema') {
      return fakeReply.error(400, "Invalid parameter: 'response_format' of type 'json_schema' is not supported with this model.")
    }
    const queued = queue.shift()
    if (queued !== undefined) return queued
    const handled = await options.handler?.(request)
    if (handled !== undefined) return handled
    if (request.judge !== undefined) return fakeReply.text(judgeAnswer(await judge(request.judge)))
    if (request.user !== undefined) return fakeReply.text(await user(request.user))
    if (request.review !== undefined) return fakeReply.text(JSON.stringify(await review(request.review)))
    return fakeReply.error(400, 'fake model server: not a simulated user, judge or review request, and no handler answered it')
  }

  async function serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const raw = await readBody(req)
    const body = parseJson(raw)
    const path = new URL(req.url ?? '/', 'http://fake').pathname
    const chat = req.method === 'POST' && path === '/v1/chat/completions' ? chatRequest(body) : undefined
    const kind = chat?.judge ? 'judge' : chat?.user ? 'user' : chat?.review ? 'review' : 'other'
    requests.push({ method: req.method ?? 'GET', path, headers: { ...req.headers }, body: body ?? raw, kind, at: Date.now(), connection: connections.get(req.socket) ?? 0 })

    if (options.latencyMs) await delay(options.latencyMs)
    if (options.apiKey !== undefined && req.headers.authorization !== `Bearer ${options.apiKey}`) {
      const sent = req.headers.authorization?.replace(/^Bearer /, '') ?? ''
      return sendReply(res, fakeReply.error(401, `Incorrect API key provided: ${sent}.`), body)
    }
    if (req.method === 'GET' && path === '/v1/models') {
      const data = (options.models ?? []).map((id) => ({ id, object: 'model', created: 0, owned_by: 'convy-fake' }))
      return sendJson(res, 200, { object: 'list', data })
    }
    if (req.method !== 'POST' || path !== '/v1/chat/completions') return sendReply(res, fakeReply.error(404, `fake model server: no route ${req.method} ${path}`), body)
    if (chat === undefined) return sendReply(res, fakeReply.error(400, 'fake model server: the body is not a chat completion request'), body)
    if (chat.body['stream'] === true) return sendReply(res, fakeReply.error(400, 'fake model server: streaming is not supported'), body)
    return sendReply(res, await chatReply(chat), body)
  }

  const server = createServer((req, res) => {
    serve(req, res).catch((error: unknown) => {
      if (!res.headersSent) sendJson(res, 500, { error: { message: `fake model server: ${String(error)}`, type: 'server_error' } })
      else res.destroy()
    })
  })
  const connections = new WeakMap<Socket, number>()
  let opened = 0
  server.on('connection', (socket: Socket) => connections.set(socket, ++opened))
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(0, '127.0.0.1', resolve)
  })
  const { port } = server.address() as AddressInfo

  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    enqueue: (...replies) => void queue.push(...replies),
    reset: () => {
      queue.length = 0
      requests.length = 0
    },
    close: () =>
      new Promise((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()))
        // Stalled and keep-alive connections would hold close() open.
        server.closeAllConnections()
      }),
  }
}

async function sendReply(res: ServerResponse, reply: FakeReply, request: unknown): Promise<void> {
  if (reply.delayMs) await delay(reply.delayMs)
  if (res.destroyed) return
  switch (reply.kind) {
    case 'answer':
      return sendJson(res, 200, completion(reply, request))
    case 'error':
      return sendJson(res, reply.status, { error: { message: reply.message, type: errorType(reply.status), param: null, code: null } }, reply.headers)
    case 'garbage':
      res.writeHead(200, { 'content-type': 'application/json' }).end('<html><body>502 Bad Gateway</body></html>')
      return
    case 'wrong_shape':
      return sendJson(res, 200, { result: 'ok', note: 'this is not a chat completion' })
    case 'drop':
      res.socket?.destroy()
      return
    case 'stall':
      res.writeHead(200, { 'content-type': 'application/json' }).write('{"id":"chatcmpl-fake","choices":[')
      return
  }
}

function completion(reply: Extract<FakeReply, { kind: 'answer' }>, request: unknown): Record<string, unknown> {
  const model = isRecord(request) ? String(request['model']) : 'fake'
  // Roughly four characters a token, so totals grow with the dialogue as real ones do.
  const usage = reply.usage ?? { inputTokens: Math.ceil(JSON.stringify(request).length / 4), outputTokens: Math.ceil((reply.text ?? '').length / 4) }
  return {
    id: 'chatcmpl-fake',
    object: 'chat.completion',
    created: 0,
    model,
    choices: [{ index: 0, message: { role: 'assistant', content: reply.text, refusal: reply.refusal ?? null, ...toolCallsOf(reply) }, logprobs: null, finish_reason: reply.finishReason ?? 'stop' }],
    usage: { prompt_tokens: usage.inputTokens, completion_tokens: usage.outputTokens, total_tokens: usage.inputTokens + usage.outputTokens },
  }
}

function toolCallsOf(reply: Extract<FakeReply, { kind: 'answer' }>): { tool_calls?: unknown[] } {
  if (!reply.toolCalls?.length) return {}
  return { tool_calls: reply.toolCalls.map((call, i) => ({ id: `call_${i + 1}`, type: 'function', function: { name: call.name, arguments: JSON.stringify(call.arguments) } })) }
}

function errorType(status: number): string {
  if (status === 401) return 'invalid_api_key'
  if (status === 429) return 'rate_limit_exceeded'
  return status >= 500 ? 'server_error' : 'invalid_request_error'
}

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body))
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = []
  for await (const chunk of req) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks).toString('utf8')
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown
  } catch {
    return undefined
  }
}

function chatRequest(body: unknown): FakeChatRequest | undefined {
  if (!isRecord(body) || !Array.isArray(body['messages'])) return undefined
  const messages = body['messages'] as unknown[]
  return { model: String(body['model']), messages, body, user: readSimulatedUserRequest(messages), judge: readJudgeRequest(messages), review: readUserReviewRequest(messages) }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** Unref'd: a slow answer nobody waits for any more must not keep the process alive. */
function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref())
}
