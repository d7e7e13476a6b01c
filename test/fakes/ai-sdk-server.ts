import type { LanguageModelV3Prompt, LanguageModelV3StreamPart, LanguageModelV3Usage } from '@ai-sdk/provider'
import { convertToModelMessages, jsonSchema, simulateReadableStream, stepCountIs, streamText, tool, type UIMessage } from 'ai'
import { MockLanguageModelV3 } from 'ai/test'
import type { TestCertificates } from './certificates.ts'
import { botAnswer } from './agent-server.ts'
import { misbehaviourIn, pieces, readJson, serve, words } from './serve.ts'

/**
 * An agent built with the Vercel AI SDK itself: `streamText` with a scripted mock model and a
 * `get_order` tool, served with `pipeUIMessageStreamToResponse` as a Next.js route would serve it to
 * `useChat`. Usage goes into the message metadata of the finish part, as the SDK's docs show.
 *
 * The mock model answers as the support bot (agent-server.ts) from every user message it is given;
 * a message with an order number of 3+ digits makes it call `get_order` first. Markers (serve.ts):
 * `[error]` makes the model fail mid-answer, `[drop]` destroys the connection after the first piece
 * of text, `[hang]` sends a piece and then nothing.
 */
export interface FakeAiSdkServer {
  url: string
  /** Request bodies, in order. */
  requests: Record<string, unknown>[]
  close(): Promise<void>
}

const USAGE = (input: number, output: number): LanguageModelV3Usage => ({
  inputTokens: { total: input, noCache: input, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: output, text: output, reasoning: 0 },
})

function userTexts(prompt: LanguageModelV3Prompt): string[] {
  return prompt.flatMap((message) => (message.role === 'user' ? [message.content.map((part) => (part.type === 'text' ? part.text : '')).join('')] : []))
}

function modelTurn(prompt: LanguageModelV3Prompt, delayMs: number, preamble = ''): ReadableStream<LanguageModelV3StreamPart> {
  const said = userTexts(prompt)
  const latest = said.at(-1) ?? ''
  const orderId = /#?(\d{3,})/.exec(latest)?.[1]
  // A tool result after the last user message means the tool was called this turn: now answer.
  const lastUser = prompt.map((m) => m.role).lastIndexOf('user')
  const toolDone = prompt.slice(lastUser).some((m) => m.role === 'tool')
  const inputWords = words(said.join(' '))
  if (orderId && !toolDone) {
    return simulateReadableStream({
      chunks: [
        ...(preamble ? ([{ type: 'text-start', id: 'p' }, { type: 'text-delta', id: 'p', delta: preamble }, { type: 'text-end', id: 'p' }] as const) : []),
        { type: 'tool-call', toolCallId: `call_${said.length}`, toolName: 'get_order', input: JSON.stringify({ id: orderId }) },
        { type: 'finish', finishReason: { unified: 'tool-calls', raw: undefined }, usage: USAGE(inputWords, 3) },
      ],
    })
  }
  const answer = botAnswer(said)
  const text: LanguageModelV3StreamPart[] = pieces(answer).map((delta) => ({ type: 'text-delta', id: 't', delta }))
  const misbehaviour = misbehaviourIn(latest)
  if (misbehaviour === 'hang') {
    return new ReadableStream({ start: (controller) => [{ type: 'text-start', id: 't' } as const, text[0]!].forEach((part) => controller.enqueue(part)) })
  }
  const failure: LanguageModelV3StreamPart[] = misbehaviour === 'error' ? [{ type: 'error', error: new Error('the model crashed mid-answer') }] : []
  return simulateReadableStream({
    initialDelayInMs: delayMs,
    chunkDelayInMs: delayMs,
    chunks: [
      { type: 'text-start', id: 't' },
      ...(failure.length ? [text[0]!, ...failure] : text),
      { type: 'text-end', id: 't' },
      { type: 'finish', finishReason: { unified: 'stop', raw: undefined }, usage: USAGE(inputWords, words(answer)) },
    ],
  })
}

/** `preamble`: text the model says before it calls `get_order` (none by default): an answer of two text parts. */
export async function startFakeAiSdkServer(options: { delayMs?: number; tls?: TestCertificates; preamble?: string } = {}): Promise<FakeAiSdkServer> {
  const requests: Record<string, unknown>[] = []
  const model = new MockLanguageModelV3({ doStream: async ({ prompt }) => ({ stream: modelTurn(prompt, options.delayMs ?? 0, options.preamble) }) })
  const getOrder = tool({
    description: 'Looks an order up',
    inputSchema: jsonSchema<{ id: string }>({ type: 'object', properties: { id: { type: 'string' } }, required: ['id'] }),
    execute: async ({ id }) => ({ id, status: 'shipped' }),
  })
  const served = await serve(async (req, res) => {
    const body = await readJson(req)
    requests.push(body)
    const messages = body['messages'] as UIMessage[]
    const latest = messages.at(-1)?.parts.map((p) => (p.type === 'text' ? p.text : '')).join('') ?? ''
    if (misbehaviourIn(latest) === 'drop') {
      // Destroy the connection once the first piece of text is on its way.
      const write = res.write.bind(res) as (chunk: unknown) => boolean
      res.write = ((chunk: unknown) => {
        const ok = write(chunk)
        if (Buffer.from(chunk as Uint8Array | string).toString().includes('"text-delta"')) res.socket?.destroy()
        return ok
      }) as typeof res.write
    }
    // onError: the failure goes to the client as an error part; the SDK would also log it.
    const tools = { get_order: getOrder }
    void streamText({ model, messages: await convertToModelMessages(messages), tools, stopWhen: stepCountIs(3), onError: () => undefined }).pipeUIMessageStreamToResponse(res, {
      messageMetadata: ({ part }) => (part.type === 'finish' ? { usage: part.totalUsage } : undefined),
      onError: (error) => `agent error: ${error instanceof Error ? error.message : String(error)}`,
    })
  }, options.tls)
  return { url: `${served.url}/api/chat`, requests, close: served.close }
}
