import type { IncomingMessage, ServerResponse } from 'node:http'
import type { TestCertificates } from './certificates.ts'
import { botAnswer } from './agent-server.ts'
import { misbehave, misbehaviourIn, pause, pieces, readJson, sendJson, serve, startEvents, words, writeEvent, type Misbehaviour } from './serve.ts'

/**
 * An agent served the way OpenAI serves models: `POST /v1/chat/completions` and `POST /v1/responses`,
 * each streaming or not, answered by a scripted model (the support bot of agent-server.ts). Its
 * answers are checked against the official `openai` client (openai-server.test.ts), so it is a
 * stand-in for a real OpenAI-compatible server rather than a mirror of our adapter.
 *
 * - A message with an order number of 3+ digits makes the model call `get_order({"id": "…"})`
 *   before it answers; in chat completions the call streams in fragments.
 * - Usage counts words: input = the words of every message read, output = the answer's.
 * - Responses are stored: `previous_response_id` continues a conversation; an unknown one is a 404
 *   `previous_response_not_found`, as OpenAI answers.
 * - Streams wait `pieceMs` between pieces of text.
 * - Markers in the user's message: see serve.ts. Without streaming, `[error]` is a 500 in chat
 *   completions and a `failed` response in the Responses API.
 */
export interface FakeOpenAIOptions {
  token?: string
  tls?: TestCertificates
  /** Milliseconds between the pieces of a streamed answer. */
  pieceMs?: number
  /** Responses without streaming: a message item saying this before the `get_order` call (an answer of two messages). */
  preamble?: string
}

export interface FakeOpenAIServer {
  url: string
  /** Request bodies, in order. */
  requests: Record<string, unknown>[]
  close(): Promise<void>
}

interface Turn {
  said: string[]
  answer: string
  orderId: string | undefined
  inputWords: number
  misbehaviour: Misbehaviour | undefined
}

export async function startFakeOpenAIServer(options: FakeOpenAIOptions = {}): Promise<FakeOpenAIServer> {
  const requests: Record<string, unknown>[] = []
  // Each stored response: every user message of its conversation so far, and the words read.
  const stored = new Map<string, string[]>()

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const body = await readJson(req)
    requests.push(body)
    if (options.token !== undefined && req.headers.authorization !== `Bearer ${options.token}`) {
      return sendJson(res, 401, { error: { message: 'Incorrect API key provided', type: 'invalid_request_error', param: null, code: 'invalid_api_key' } })
    }
    if (req.url === '/v1/chat/completions') return chat(body, res)
    if (req.url === '/v1/responses') return responses(body, res)
    sendJson(res, 404, { error: { message: `no route ${req.url}`, type: 'invalid_request_error', param: null, code: null } })
  }

  function turnOf(said: string[], read: string): Turn {
    const latest = said.at(-1) ?? ''
    return { said, answer: botAnswer(said), orderId: /#?(\d{3,})/.exec(latest)?.[1], inputWords: words(read), misbehaviour: misbehaviourIn(latest) }
  }

  async function chat(body: Record<string, unknown>, res: ServerResponse): Promise<void> {
    const messages = body['messages'] as { role: string; content: string }[]
    const turn = turnOf(messages.filter((m) => m.role === 'user').map((m) => m.content), messages.map((m) => m.content).join(' '))
    const usage = { prompt_tokens: turn.inputWords, completion_tokens: words(turn.answer), total_tokens: turn.inputWords + words(turn.answer) }
    const id = `chatcmpl-${requests.length}`
    const created = Math.floor(Date.now() / 1000)
    const base = { id, created, model: body['model'], system_fingerprint: null }
    if (body['stream'] !== true) {
      if (misbehave(res, turn.misbehaviour)) return
      if (turn.misbehaviour) return sendJson(res, 500, { error: { message: 'The model crashed', type: 'server_error', param: null, code: null } })
      const toolCalls = turn.orderId ? [{ id: 'call_1', type: 'function', function: { name: 'get_order', arguments: JSON.stringify({ id: turn.orderId }) } }] : undefined
      const message = { role: 'assistant', content: turn.answer, refusal: null, ...(toolCalls ? { tool_calls: toolCalls } : {}) }
      return sendJson(res, 200, { ...base, object: 'chat.completion', choices: [{ index: 0, message, logprobs: null, finish_reason: 'stop' }], usage })
    }
    const includeUsage = (body['stream_options'] as { include_usage?: boolean } | undefined)?.include_usage === true
    const chunk = (delta: Record<string, unknown> | null, finish: string | null = null, extra: Record<string, unknown> = {}) =>
      writeEvent(res, { ...base, object: 'chat.completion.chunk', choices: delta ? [{ index: 0, delta, logprobs: null, finish_reason: finish }] : [], ...(includeUsage ? { usage: null } : {}), ...extra })
    startEvents(res)
    chunk({ role: 'assistant', content: '' })
    if (turn.orderId) {
      const args = JSON.stringify({ id: turn.orderId })
      chunk({ tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'get_order', arguments: '' } }] })
      for (const part of [args.slice(0, 5), args.slice(5)]) chunk({ tool_calls: [{ index: 0, function: { arguments: part } }] })
    }
    for (const [i, piece] of pieces(turn.answer).entries()) {
      if (i > 0) await pause(options.pieceMs ?? 0)
      chunk({ content: piece })
      if (i === 1 && turn.misbehaviour === 'error') {
        writeEvent(res, { error: { message: 'The model crashed mid-answer', type: 'server_error', param: null, code: null } })
        return void res.end()
      }
      if (i === 1 && misbehave(res, turn.misbehaviour)) return
    }
    chunk({}, 'stop')
    if (includeUsage) chunk(null, null, { usage })
    res.end('data: [DONE]\n\n')
  }

  async function responses(body: Record<string, unknown>, res: ServerResponse): Promise<void> {
    const previousId = body['previous_response_id'] as string | undefined
    const earlier = previousId === undefined ? [] : stored.get(previousId)
    if (earlier === undefined) {
      return sendJson(res, 404, { error: { message: `Previous response with id '${previousId}' not found.`, type: 'invalid_request_error', param: 'previous_response_id', code: 'previous_response_not_found' } })
    }
    const input = typeof body['input'] === 'string' ? body['input'] : String((body['input'] as { content: string }[]).at(-1)?.content)
    const turn = turnOf([...earlier, input], [...earlier, input].join(' '))
    const id = `resp_${requests.length}`
    const outputItems = [
      ...(turn.orderId ? [{ type: 'function_call', id: 'fc_1', call_id: 'call_1', name: 'get_order', arguments: JSON.stringify({ id: turn.orderId }), status: 'completed' }] : []),
      { type: 'message', id: 'msg_1', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: turn.answer, annotations: [], logprobs: [] }] },
    ]
    const usage = { input_tokens: turn.inputWords, input_tokens_details: { cached_tokens: 0 }, output_tokens: words(turn.answer), output_tokens_details: { reasoning_tokens: 0 }, total_tokens: turn.inputWords + words(turn.answer) }
    const response = (status: string, output: unknown[], extra: Record<string, unknown> = {}) => ({
      id,
      object: 'response',
      created_at: Math.floor(Date.now() / 1000),
      status,
      model: body['model'],
      instructions: body['instructions'] ?? null,
      previous_response_id: previousId ?? null,
      output,
      usage: status === 'completed' ? usage : null,
      error: null,
      incomplete_details: null,
      parallel_tool_calls: true,
      tool_choice: 'auto',
      tools: [],
      ...extra,
    })
    if (body['stream'] !== true) {
      if (misbehave(res, turn.misbehaviour)) return
      if (turn.misbehaviour) return sendJson(res, 200, response('failed', [], { error: { code: 'server_error', message: 'The model crashed' } }))
      stored.set(id, turn.said)
      const preamble = options.preamble && turn.orderId ? [{ type: 'message', id: 'msg_0', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: options.preamble, annotations: [], logprobs: [] }] }] : []
      return sendJson(res, 200, response('completed', [...preamble, ...outputItems]))
    }
    let sequence = 0
    const event = (type: string, fields: Record<string, unknown>) => writeEvent(res, { type, sequence_number: sequence++, ...fields }, type)
    startEvents(res)
    event('response.created', { response: response('in_progress', []) })
    event('response.in_progress', { response: response('in_progress', []) })
    const [call, message] = turn.orderId ? outputItems : [undefined, outputItems[0]]
    if (call) {
      event('response.output_item.added', { output_index: 0, item: { ...call, arguments: '', status: 'in_progress' } })
      event('response.function_call_arguments.delta', { item_id: 'fc_1', output_index: 0, delta: call['arguments'] })
      event('response.function_call_arguments.done', { item_id: 'fc_1', output_index: 0, arguments: call['arguments'] })
      event('response.output_item.done', { output_index: 0, item: call })
    }
    const at = { item_id: 'msg_1', output_index: call ? 1 : 0, content_index: 0 }
    event('response.output_item.added', { output_index: at.output_index, item: { ...message, status: 'in_progress', content: [] } })
    event('response.content_part.added', { ...at, part: { type: 'output_text', text: '', annotations: [] } })
    for (const [i, piece] of pieces(turn.answer).entries()) {
      if (i > 0) await pause(options.pieceMs ?? 0)
      event('response.output_text.delta', { ...at, delta: piece, logprobs: [] })
      if (i === 1 && turn.misbehaviour === 'error') {
        event('error', { code: 'server_error', message: 'The model crashed mid-answer', param: null })
        return void res.end()
      }
      if (i === 1 && misbehave(res, turn.misbehaviour)) return
    }
    event('response.output_text.done', { ...at, text: turn.answer, logprobs: [] })
    event('response.content_part.done', { ...at, part: { type: 'output_text', text: turn.answer, annotations: [] } })
    event('response.output_item.done', { output_index: at.output_index, item: message })
    stored.set(id, turn.said)
    event('response.completed', { response: response('completed', outputItems) })
    res.end()
  }

  const served = await serve((req, res) => void handle(req, res).catch((error: unknown) => sendJson(res, 500, { error: { message: String(error) } })), options.tls)
  return { url: served.url, requests, close: served.close }
}
