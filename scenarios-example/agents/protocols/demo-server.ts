import { randomUUID } from 'node:crypto'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { pathToFileURL } from 'node:url'

/**
 * One small order-status bot served over every protocol convy-ci speaks, on one port, with no
 * dependencies: a place to try each `protocol:` of convy.yml before pointing it at a real agent.
 * It calls a `get_order` tool when given an order number, streams where the protocol streams, and
 * reports token usage where the protocol carries it.
 *
 *   npx tsx scenarios-example/agents/protocols/demo-server.ts        # or: node demo-server.ts on Node ≥ 22.18
 *   DEMO_URL=http://127.0.0.1:8787 npx convy-ci run openai_chat --config scenarios-example/agents/protocols/convy.yml
 *
 * Routes: /v1/chat/completions and /v1/responses (OpenAI), /api/chat (AI SDK UI stream),
 * /.well-known/agent-card.json and /a2a (A2A 1.0), /threads… (LangGraph), /sse and /ndjson.
 */

const ORDERS: Record<string, string> = { '48213': 'Order 48213 shipped on Monday and arrives on Friday.', '51877': 'Order 51877 was delivered on Tuesday.' }

interface Reply {
  text: string
  tool?: { name: string; arguments: { id: string } }
}

/** The bot: everything the user said in this conversation in, one answer out. */
function reply(said: readonly string[]): Reply {
  const latest = said.at(-1) ?? ''
  const id = [...said.join(' ').matchAll(/\b(\d{5})\b/g)].at(-1)?.[1]
  if (/thank/i.test(latest)) return { text: "You're welcome!" }
  if (id) return { text: ORDERS[id] ?? `I can't find an order ${id}. Could you check the number?`, tool: { name: 'get_order', arguments: { id } } }
  if (/order|package|deliver|where is/i.test(said.join(' '))) return { text: 'Sure. What is your order number? It is in your confirmation email.' }
  return { text: 'I can help with orders and deliveries. What can I do for you?' }
}

const words = (text: string) => text.split(/\s+/).filter(Boolean).length
const pieces = (text: string) => text.split(/(?<= )/)
const pause = () => new Promise((done) => setTimeout(done, 15))

// What each protocol's requests carry, as far as this bot reads them.
interface ChatBody { model: string; messages: { role: string; content: string }[]; stream?: boolean; stream_options?: { include_usage?: boolean } }
interface ResponsesBody { model: string; input: string | { content: string }[]; previous_response_id?: string; stream?: boolean }
interface UiChatBody { messages: { role: string; parts: { type: string; text?: string }[] }[] }
interface A2aBody { id?: unknown; method?: string; params: { message: { contextId?: string; parts: { text?: string }[] } } }
interface RunBody { input: { messages: { content: string }[] } }
interface SseBody { session_id?: string; message: string }
interface ThreadMessage { type: string; content: string; id: string; [field: string]: unknown }

async function json(req: IncomingMessage): Promise<unknown> {
  let text = ''
  for await (const chunk of req) text += String(chunk)
  return text ? JSON.parse(text) : {}
}

function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body))
}

function events(res: ServerResponse, contentType = 'text/event-stream') {
  res.writeHead(200, { 'content-type': contentType, 'cache-control': 'no-cache' })
  return (data: unknown, event?: string) => res.write(`${event ? `event: ${event}\n` : ''}data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`)
}

// --- OpenAI Chat Completions: the whole dialogue every turn; SSE chunks when stream is true.
async function chat(body: ChatBody, res: ServerResponse): Promise<void> {
  const said = body.messages.filter((m) => m.role === 'user').map((m) => String(m.content))
  const { text, tool } = reply(said)
  const usage = { prompt_tokens: words(said.join(' ')), completion_tokens: words(text), total_tokens: words(said.join(' ')) + words(text) }
  const toolCalls = tool ? [{ index: 0, id: 'call_1', type: 'function', function: { name: tool.name, arguments: JSON.stringify(tool.arguments) } }] : undefined
  const base = { id: `chatcmpl-${randomUUID()}`, created: Math.floor(Date.now() / 1000), model: body.model }
  if (!body.stream) {
    const message = { role: 'assistant', content: text, refusal: null, ...(toolCalls ? { tool_calls: toolCalls } : {}) }
    return send(res, 200, { ...base, object: 'chat.completion', choices: [{ index: 0, message, logprobs: null, finish_reason: 'stop' }], usage })
  }
  const write = events(res)
  const chunk = (delta: object | null, finish: string | null = null, extra = {}) => write({ ...base, object: 'chat.completion.chunk', choices: delta ? [{ index: 0, delta, finish_reason: finish }] : [], ...extra })
  if (toolCalls) chunk({ role: 'assistant', tool_calls: toolCalls })
  for (const piece of pieces(text)) await pause().then(() => chunk({ content: piece }))
  chunk({}, 'stop')
  if (body.stream_options?.include_usage) chunk(null, null, { usage })
  res.end('data: [DONE]\n\n')
}

// --- OpenAI Responses: the server keeps the conversation; previous_response_id continues it.
const responses = new Map<string, string[]>()
async function respond(body: ResponsesBody, res: ServerResponse): Promise<void> {
  const earlier = body.previous_response_id ? responses.get(body.previous_response_id) : []
  if (!earlier) return send(res, 404, { error: { message: 'Previous response not found.', type: 'invalid_request_error', param: 'previous_response_id', code: 'previous_response_not_found' } })
  const said = [...earlier, typeof body.input === 'string' ? body.input : String(body.input.at(-1)?.content)]
  const { text, tool } = reply(said)
  const id = `resp_${randomUUID()}`
  responses.set(id, said)
  const output = [
    ...(tool ? [{ type: 'function_call', id: 'fc_1', call_id: 'call_1', name: tool.name, arguments: JSON.stringify(tool.arguments), status: 'completed' }] : []),
    { type: 'message', id: 'msg_1', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text, annotations: [] }] },
  ]
  const response = { id, object: 'response', created_at: Math.floor(Date.now() / 1000), status: 'completed', model: body.model, output, error: null, incomplete_details: null, usage: { input_tokens: words(said.join(' ')), output_tokens: words(text), total_tokens: words(said.join(' ')) + words(text) } }
  if (!body.stream) return send(res, 200, response)
  const write = events(res)
  let sequence = 0
  const event = (type: string, fields: object) => write({ type, sequence_number: sequence++, ...fields }, type)
  event('response.created', { response: { ...response, status: 'in_progress', output: [], usage: null } })
  for (const delta of pieces(text)) await pause().then(() => event('response.output_text.delta', { item_id: 'msg_1', output_index: output.length - 1, content_index: 0, delta }))
  event('response.completed', { response })
  res.end()
}

// --- AI SDK UI message stream, as useChat's DefaultChatTransport reads it: the chat is resent each turn.
async function uiChat(body: UiChatBody, res: ServerResponse): Promise<void> {
  const said = body.messages.filter((m) => m.role === 'user').map((m) => m.parts.map((p) => (p.type === 'text' ? p.text : '')).join(''))
  const { text, tool } = reply(said)
  res.setHeader('x-vercel-ai-ui-message-stream', 'v1')
  const write = events(res)
  write({ type: 'start', messageId: `msg-${randomUUID()}` })
  if (tool) {
    write({ type: 'start-step' })
    write({ type: 'tool-input-available', toolCallId: 'call_1', toolName: tool.name, input: tool.arguments })
    write({ type: 'tool-output-available', toolCallId: 'call_1', output: { status: text } })
    write({ type: 'finish-step' })
  }
  write({ type: 'start-step' })
  write({ type: 'text-start', id: 't1' })
  for (const delta of pieces(text)) await pause().then(() => write({ type: 'text-delta', id: 't1', delta }))
  write({ type: 'text-end', id: 't1' })
  write({ type: 'finish-step' })
  write({ type: 'finish', finishReason: 'stop', messageMetadata: { usage: { inputTokens: words(said.join(' ')), outputTokens: words(text) } } })
  res.end('data: [DONE]\n\n')
}

// --- A2A 1.0 over JSON-RPC: the conversation is the contextId; the answer streams as artifact chunks.
const contexts = new Map<string, string[]>()
async function a2a(req: IncomingMessage, body: A2aBody, res: ServerResponse): Promise<void> {
  const rpc = (result: unknown) => ({ jsonrpc: '2.0', id: body.id, result })
  if (req.headers['a2a-version'] !== '1.0' || !['SendMessage', 'SendStreamingMessage'].includes(body.method ?? '')) {
    return send(res, 200, { jsonrpc: '2.0', id: body.id ?? null, error: { code: -32601, message: `Method not found: ${body.method}` } })
  }
  const message = body.params.message
  const contextId = message.contextId ?? randomUUID()
  const said = [...(contexts.get(contextId) ?? []), message.parts.map((p) => p.text ?? '').join('')]
  contexts.set(contextId, said)
  const { text, tool } = reply(said)
  const usage = { usage: { input_tokens: words(said.join(' ')), output_tokens: words(text) } }
  // A2A has no tool calls of its own; this is how Google's ADK reports them.
  const calls = tool ? [{ data: { id: 'call_1', name: tool.name, args: tool.arguments }, metadata: { adk_type: 'function_call' } }] : []
  if (body.method === 'SendMessage') return send(res, 200, rpc({ message: { messageId: randomUUID(), contextId, role: 'ROLE_AGENT', parts: [...calls, { text }], metadata: usage } }))
  const write = events(res)
  const taskId = randomUUID()
  write(rpc({ task: { id: taskId, contextId, status: { state: 'TASK_STATE_WORKING' } } }))
  if (calls.length) write(rpc({ statusUpdate: { taskId, contextId, status: { state: 'TASK_STATE_WORKING', message: { messageId: randomUUID(), role: 'ROLE_AGENT', parts: calls } } } }))
  for (const [i, piece] of pieces(text).entries()) {
    await pause()
    write(rpc({ artifactUpdate: { taskId, contextId, artifact: { artifactId: 'answer', parts: [{ text: piece }] }, append: i > 0 } }))
  }
  write(rpc({ statusUpdate: { taskId, contextId, status: { state: 'TASK_STATE_COMPLETED' }, metadata: usage } }))
  res.end()
}

function agentCard(url: string) {
  return {
    name: 'Order bot',
    description: 'Answers questions about orders',
    version: '1',
    supportedInterfaces: [{ url: `${url}/a2a`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' }],
    capabilities: { streaming: true },
    defaultInputModes: ['text'],
    defaultOutputModes: ['text'],
    skills: [],
  }
}

// --- LangGraph Agent Server: a thread per conversation, a run per turn.
const threads = new Map<string, ThreadMessage[]>()
async function langgraph(path: string, body: RunBody, res: ServerResponse): Promise<void> {
  if (path === '/threads') {
    const id = randomUUID()
    threads.set(id, [])
    return send(res, 200, { thread_id: id, status: 'idle', metadata: {} })
  }
  const [, id, mode] = /^\/threads\/([^/]+)\/runs\/(wait|stream)$/.exec(path) ?? []
  const thread = threads.get(id ?? '')
  if (!thread) return send(res, 404, { detail: 'Thread not found' })
  thread.push(...body.input.messages.map((m) => ({ type: 'human', content: m.content, id: randomUUID() })))
  const { text, tool } = reply(thread.flatMap((m) => (m.type === 'human' ? [m.content] : [])))
  const usage = { input_tokens: words(body.input.messages.map((m) => m.content).join(' ')), output_tokens: words(text) }
  if (tool) thread.push({ type: 'ai', content: '', id: randomUUID(), tool_calls: [{ name: tool.name, args: tool.arguments, id: 'call_1', type: 'tool_call' }] }, { type: 'tool', content: text, tool_call_id: 'call_1', id: randomUUID() })
  const answer: ThreadMessage = { type: 'ai', content: text, id: randomUUID(), tool_calls: [], usage_metadata: usage }
  if (mode === 'wait') {
    thread.push(answer)
    return send(res, 200, { messages: thread })
  }
  const write = events(res)
  write({ run_id: randomUUID() }, 'metadata')
  for (const piece of pieces(text)) await pause().then(() => write([{ type: 'AIMessageChunk', content: piece, id: answer.id }, { langgraph_node: 'agent' }], 'messages'))
  thread.push(answer)
  write({ messages: thread }, 'values')
  res.end()
}

// --- Generic streams: SSE that gives back its own session id, and NDJSON as Ollama streams.
const sessions = new Map<string, string[]>()
async function sse(body: SseBody, res: ServerResponse): Promise<void> {
  const session = body.session_id !== undefined && sessions.has(body.session_id) ? body.session_id : `demo-${randomUUID().slice(0, 8)}`
  const said = [...(sessions.get(session) ?? []), String(body.message)]
  sessions.set(session, said)
  const { text, tool } = reply(said)
  const write = events(res)
  if (tool) write({ tool }, 'tool')
  for (const delta of pieces(text)) await pause().then(() => write({ delta }, 'token'))
  write({ session_id: session, usage: { input_tokens: words(said.join(' ')), output_tokens: words(text) } }, 'done')
  res.end()
}

async function ndjson(body: ChatBody, res: ServerResponse): Promise<void> {
  const said = body.messages.filter((m) => m.role === 'user').map((m) => String(m.content))
  const { text, tool } = reply(said)
  res.writeHead(200, { 'content-type': 'application/x-ndjson' })
  const line = (value: object) => res.write(`${JSON.stringify(value)}\n`)
  if (tool) line({ message: { role: 'assistant', content: '', tool_calls: [{ function: tool }] }, done: false })
  for (const content of pieces(text)) await pause().then(() => line({ message: { role: 'assistant', content }, done: false }))
  line({ done: true, prompt_eval_count: words(said.join(' ')), eval_count: words(text) })
  res.end()
}

export async function startDemoServer(port = 8787, host = '127.0.0.1'): Promise<{ url: string; close(): Promise<void> }> {
  let url = ''
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0]!
    const route = async () => {
      if (req.method === 'GET' && path === '/.well-known/agent-card.json') return send(res, 200, agentCard(url))
      const body = await json(req)
      if (path === '/v1/chat/completions') return chat(body as ChatBody, res)
      if (path === '/v1/responses') return respond(body as ResponsesBody, res)
      if (path === '/api/chat') return uiChat(body as UiChatBody, res)
      if (path === '/a2a') return a2a(req, body as A2aBody, res)
      if (path.startsWith('/threads')) return langgraph(path, body as RunBody, res)
      if (path === '/sse') return sse(body as SseBody, res)
      if (path === '/ndjson') return ndjson(body as ChatBody, res)
      send(res, 404, { error: `no route ${req.method} ${path}` })
    }
    route().catch((error: unknown) => send(res, 500, { error: String(error) }))
  })
  await new Promise<void>((ready) => server.listen(port, host, ready))
  url = `http://${host}:${(server.address() as AddressInfo).port}`
  return { url, close: () => new Promise((closed) => server.close(() => closed())) }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { url } = await startDemoServer(Number(process.env.PORT ?? 8787))
  console.log(`demo agents on ${url}; try: DEMO_URL=${url} npx convy-ci run openai_chat --config scenarios-example/agents/protocols/convy.yml`)
}
