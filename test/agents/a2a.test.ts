import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { createA2aAgent } from '../../src/play/agents/protocols/a2a.ts'
import { A2aAgentConfigSchema } from '../../src/records/config/config.ts'
import { createFetch } from '../../src/base/http/fetch.ts'
import { startFakeA2aServer, type FakeA2aOptions, type FakeA2aServer } from '../fakes/a2a-server.ts'
import { protocolContract, talkWith } from './protocol-contract.ts'

/** Against an agent served by the official A2A SDK, in both dialects, answering with messages and with tasks. */
const FAILED_TASK = /the task failed: Agent execution error: the model crashed/

for (const [a2a_version, stream, answerAs] of [
  ['1.0', true, 'task'],
  ['1.0', false, 'message'],
  ['0.3', true, 'task'],
  ['0.3', false, 'task'],
] as const) {
  protocolContract({
    name: `a2a ${a2a_version} (${stream ? 'stream' : 'send'}, ${answerAs}s)`,
    start: ({ tls, slow }) => startFakeA2aServer({ answerAs, tls, pieceMs: slow ? 20 : 0 }),
    config: (url) => ({ protocol: 'a2a', url, stream, a2a_version }),
    streams: stream,
    usage: 'counted',
    toolCalls: true,
    toolResults: true,
    agentError: FAILED_TASK,
  })
}

function agent(server: FakeA2aServer, fields: Record<string, unknown> = {}) {
  return createA2aAgent(A2aAgentConfigSchema.parse({ protocol: 'a2a', url: server.url, ...fields }), createFetch())
}

describe('a2a: tasks that wait for input, and the agent card', () => {
  const servers: FakeA2aServer[] = []
  const start = async (options: FakeA2aOptions) => {
    const server = await startFakeA2aServer(options)
    servers.push(server)
    return server
  }
  let tasks: FakeA2aServer
  before(async () => {
    tasks = await start({ answerAs: 'task' })
  })
  after(() => Promise.all(servers.map((s) => s.close())))

  for (const stream of [false, true]) {
    test(`an input-required task is continued with its taskId, in the same context (${stream ? 'stream' : 'send'})`, async () => {
      const from = tasks.received.length
      const answers = await talkWith(agent(tasks, { stream }), ['where is my order?', '4321', 'thanks'])
      assert.deepEqual(
        answers.map((a) => a.text),
        ['I can help with your order. What is your order number?', 'Thanks. Order #4321 is on its way and should arrive in 2 days.', "You're welcome!"],
      )
      const [first, second, third] = tasks.received.slice(from)
      assert.equal(first?.continuedTask, undefined)
      assert.ok(second?.continuedTask, 'the answer to the question continues the waiting task')
      assert.equal(third?.continuedTask, undefined, 'a completed task is not continued')
      assert.equal(new Set([first?.contextId, second?.contextId, third?.contextId]).size, 1)
    })
  }

  test('with no version set, the card decides: v1.0 where offered, v0.3 from a v0.3-only card', async () => {
    const legacy = await start({ answerAs: 'message', card: 'v0.3' })
    for (const server of [tasks, legacy]) {
      const [answer] = await talkWith(agent(server), ['hello'])
      assert.equal(answer?.text, 'Hello! How can I help you today?')
    }
    // The SDK routes by the A2A-Version header, so a v1.0 call to the v0.3-only card's server would
    // have failed with -32601: this answer came over v0.3, as the card said.
    await assert.rejects(talkWith(agent(legacy, { a2a_version: '1.0' }), ['hello']), /offers no JSON-RPC interface for A2A 1\.0 \(JSON-RPC interfaces: 0\.3 at http/)
  })

  test('a v1.0 method sent to a v0.3 endpoint is method not found, with a hint', async () => {
    const wrong = agent(tasks, { endpoint: tasks.url, a2a_version: '1.0', headers: { 'A2A-Version': '0.3' } })
    await assert.rejects(talkWith(wrong, ['hello']), /JSON-RPC error -32601: .*SendMessage.*set a2a_version: "0\.3"/)
  })

  test('a card that cannot be fetched fails the conversation’s opening, and is asked for again next time', async () => {
    const missing = agent(tasks, { url: `${tasks.url}nowhere/card.json` })
    await assert.rejects(talkWith(missing, ['hello']), /GET .*nowhere\/card\.json answered HTTP 404/)
    await assert.rejects(talkWith(missing, ['hello']), /HTTP 404/)
  })
})
