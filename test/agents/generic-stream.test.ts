import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { SseAgentConfigSchema } from '../../src/records/config/config.ts'
import { createStreamAgent } from '../../src/play/agents/protocols/generic-stream.ts'
import { startFakeStreamServer } from '../fakes/stream-server.ts'
import type { TestCertificates } from '../fakes/certificates.ts'
import { serve, startEvents } from '../fakes/serve.ts'
import { protocolContract, talkWith } from './protocol-contract.ts'

/** Agents with streaming APIs of their own, described by paths in convy.yml. */
const start = ({ tls, slow }: { tls?: TestCertificates; slow?: boolean }) => startFakeStreamServer({ tls, pieceMs: slow ? 20 : 0 })

protocolContract({
  name: 'sse (a session id given back by the agent)',
  start,
  config: (url) => ({
    protocol: 'sse',
    url: `${url}/chat/stream`,
    body: { session_id: '{session}', message: '{text}' },
    delta: 'delta',
    tokens: ['usage.input_tokens', 'usage.output_tokens'],
    session: 'session_id',
    tool_calls: { path: 'tool' },
    done: 'event:done',
  }),
  streams: true,
  usage: 'counted',
  toolCalls: true,
  agentError: /sent an error event: the model crashed/,
})

protocolContract({
  name: 'ndjson (stateless, as Ollama streams)',
  start,
  config: (url) => ({
    protocol: 'ndjson',
    url: `${url}/api/chat`,
    body: { model: 'bot', messages: '{history}', stream: true },
    delta: 'message.content',
    tokens: ['prompt_eval_count', 'eval_count'],
    tool_calls: { path: 'message.tool_calls', name: 'function.name', arguments: 'function.arguments' },
    done: 'done',
  }),
  streams: true,
  usage: 'counted',
  toolCalls: true,
  agentError: /sent an error: the model crashed/,
})

describe('generic streams: what the paths and markers mean', () => {
  async function answerFrom(events: string, fields: Record<string, unknown> = {}) {
    const server = await serve((_req, res) => {
      startEvents(res)
      res.end(events)
    })
    try {
      const config = SseAgentConfigSchema.parse({ protocol: 'sse', url: server.url, body: { q: '{text}' }, delta: 'd', ...fields })
      return (await talkWith(createStreamAgent(config), ['hi']))[0]!
    } finally {
      await server.close()
    }
  }

  test('SSE as the spec parses it: CRLF, comments, multi-line data, and [DONE] ending the answer', async () => {
    const answer = await answerFrom(': keep-alive\r\ndata: {"d":\r\ndata: "Hel"}\r\n\r\nevent: token\ndata: {"d":"lo"}\n\ndata: [DONE]\n\ndata: {"d":" never read"}\n\n')
    assert.equal(answer.text, 'Hello')
  })

  test('`text` wins over the pieces; a missing end marker is a cut-short answer', async () => {
    assert.equal((await answerFrom('data: {"d":"Hel"}\n\ndata: {"final":"Hello!"}\n\n', { text: 'final' })).text, 'Hello!')
    await assert.rejects(answerFrom('data: {"d":"Hel"}\n\n', { done: '[DONE]' }), /ended before its end marker \(\[DONE\]\): the answer was cut short/)
  })

  test('an event cut in the middle is not taken for a whole one', async () => {
    await assert.rejects(answerFrom('data: {"d":"Hel"}\n\ndata: {"d":"lo"}', { done: 'done' }), /cut short/)
    assert.equal((await answerFrom('data: {"d":"Hel"}\n\ndata: {"d":"lo"}')).text, 'Hel')
  })

  test('a path that never matches says where it looked and what came', async () => {
    await assert.rejects(answerFrom('data: {"token":"Hello"}\n\n'), /no event from POST .* had text at "d"; the last was: \{"token":"Hello"\}/)
  })
})
