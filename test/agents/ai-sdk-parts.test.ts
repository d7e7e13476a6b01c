import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { createAiSdkAgent } from '../../src/play/agents/protocols/ai-sdk.ts'
import { AiSdkAgentConfigSchema } from '../../src/records/config/config.ts'
import { readJson, serve, startEvents, type Served } from '../fakes/serve.ts'
import { talkWith } from './protocol-contract.ts'

/**
 * UI message stream parts the installed `ai@6` server does not send: AI SDK 7 additions, dynamic
 * tools, failed tools, metadata in several parts, aborts. The server replays a stream written out
 * here part by part (shapes from the SDK's own part schemas) and keeps every request it got.
 */
let server: Served
let replies: string[] = []
const requests: Record<string, unknown>[] = []
before(async () => {
  server = await serve(async (req, res) => {
    requests.push(await readJson(req))
    const reply = replies.shift() ?? ''
    if (reply.startsWith('text/plain:')) return void res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' }).end(reply.slice(11))
    startEvents(res)
    res.end(reply)
  })
})
after(() => server.close())

const stream = (...parts: unknown[]) => [...parts.map((p) => `data: ${JSON.stringify(p)}\n\n`), 'data: [DONE]\n\n'].join('')
const agent = (fields: Record<string, unknown> = {}) => createAiSdkAgent(AiSdkAgentConfigSchema.parse({ protocol: 'ai-sdk', url: `${server.url}/api/chat`, ...fields }))

describe('ai-sdk: the parts of a UI message stream', () => {
  test('AI SDK 7 parts: a reset step drops what it said; `text` parts; unknown parts are ignored', async () => {
    replies = [
      stream(
        { type: 'start', messageId: 'm-1', messageMetadata: { model: 'x' } },
        { type: 'start-step' },
        { type: 'text-start', id: 'a' },
        { type: 'text-delta', id: 'a', delta: 'A first try' },
        { type: 'reset-step' },
        { type: 'text', id: 'b', text: 'The answer' },
        { type: 'custom', kind: 'anything' },
        { type: 'data-weather', data: { sky: 'sunny' } },
        { type: 'steering-message', text: 'ignored' },
        { type: 'finish-step' },
        { type: 'message-metadata', messageMetadata: { usage: { inputTokens: 7, outputTokens: 2 } } },
        { type: 'finish', finishReason: 'stop' },
      ),
    ]
    const [answer] = await talkWith(agent(), ['hi'])
    assert.deepEqual(answer, { text: 'The answer', usage: { input: 7, output: 2 } })
  })

  test('dynamic and failed tools are tool calls, with their outputs or errors; the chat sent back keeps them in useChat’s shape', async () => {
    replies = [
      stream(
        { type: 'start', messageId: 'm-2' },
        { type: 'start-step' },
        { type: 'tool-input-start', toolCallId: 'c1', toolName: 'search', dynamic: true },
        { type: 'tool-input-delta', toolCallId: 'c1', inputTextDelta: '{"q":' },
        { type: 'tool-input-available', toolCallId: 'c1', toolName: 'search', input: { q: 'shoes' }, dynamic: true },
        { type: 'tool-output-available', toolCallId: 'c1', output: ['a'], dynamic: true },
        { type: 'tool-input-available', toolCallId: 'c2', toolName: 'refund', input: { id: 7 } },
        { type: 'tool-output-error', toolCallId: 'c2', errorText: 'not allowed' },
        { type: 'finish-step' },
        { type: 'start-step' },
        { type: 'text-start', id: 't' },
        { type: 'text-delta', id: 't', delta: 'Found shoes.' },
        { type: 'text-end', id: 't' },
        { type: 'finish-step' },
        { type: 'finish' },
      ),
      stream({ type: 'start' }, { type: 'text-start', id: 't' }, { type: 'text-delta', id: 't', delta: 'ok' }, { type: 'finish' }),
    ]
    const from = requests.length
    const [first] = await talkWith(agent({ body: { tenant: 'acme' } }), ['find shoes', 'thanks'])
    assert.deepEqual(first?.toolCalls, [
      { name: 'search', arguments: { q: 'shoes' }, result: ['a'] },
      { name: 'refund', arguments: { id: 7 }, result: { error: 'not allowed' } },
    ])
    const second = requests[from + 1] as { id: string; tenant: string; trigger: string; messages: { id: string; role: string; parts: unknown[] }[] }
    assert.equal(second.id, (requests[from] as { id: string }).id, 'the chat id stays')
    assert.equal(second.tenant, 'acme')
    assert.equal(second.trigger, 'submit-message')
    assert.deepEqual(second.messages[1], {
      id: 'm-2',
      role: 'assistant',
      parts: [
        { type: 'step-start' },
        { type: 'dynamic-tool', toolName: 'search', toolCallId: 'c1', state: 'output-available', input: { q: 'shoes' }, output: ['a'] },
        { type: 'tool-refund', toolCallId: 'c2', state: 'output-error', input: { id: 7 }, errorText: 'not allowed' },
        { type: 'step-start' },
        { type: 'text', text: 'Found shoes.', state: 'done' },
      ],
    })
    assert.deepEqual(second.messages.map((m) => m.role), ['user', 'assistant', 'user'])
  })

  test('usage at the paths of `tokens`, when the server names it its own way', async () => {
    replies = [stream({ type: 'text', text: 'hi' }, { type: 'finish', messageMetadata: { cost: { in: 3, out: 1 } } })]
    const [answer] = await talkWith(agent({ tokens: ['cost.in', 'cost.out'] }), ['hi'])
    assert.deepEqual(answer?.usage, { input: 3, output: 1 })
  })

  test('an abort part, a stream with no finish, and a plain text stream fail the turn, each saying why', async () => {
    replies = [
      stream({ type: 'start' }, { type: 'text-delta', id: 't', delta: 'par' }, { type: 'abort', reason: 'user stopped' }),
      'data: {"type":"start"}\n\ndata: {"type":"text-delta","id":"t","delta":"par"}\n\n',
      'text/plain:Hello there',
    ]
    await assert.rejects(talkWith(agent(), ['a']), /the agent aborted its answer: user stopped/)
    await assert.rejects(talkWith(agent(), ['b']), /ended before its finish part: the answer was cut short/)
    await assert.rejects(talkWith(agent(), ['c']), /answered text\/plain; charset=utf-8, not a UI message stream \(text\/event-stream\)/)
  })
})
