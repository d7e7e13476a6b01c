import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { createLangGraphAgent } from '../../src/play/agents/protocols/langgraph.ts'
import { LangGraphAgentConfigSchema } from '../../src/records/config/config.ts'
import { createFetch } from '../../src/base/http/fetch.ts'
import { startFakeLangGraphServer, type FakeLangGraphServer } from '../fakes/langgraph-server.ts'
import { protocolContract, talkWith } from './protocol-contract.ts'

/**
 * Against a stand-in for LangGraph's Agent Server (test/fakes/langgraph-server.ts). The real server
 * (@langchain/langgraph-api) is too heavy for CI; running this contract against it is left optional.
 */
for (const stream of [false, true]) {
  protocolContract({
    name: `langgraph (${stream ? 'runs/stream' : 'runs/wait'})`,
    start: ({ tls, slow }) => startFakeLangGraphServer({ tls, pieceMs: slow ? 20 : 0 }),
    config: (url) => ({ protocol: 'langgraph', url, assistant_id: 'agent', stream }),
    streams: stream,
    usage: 'counted',
    toolCalls: true,
    toolResults: true,
    agentError: /the run failed: ValueError: the model crashed/,
  })
}

describe('langgraph: threads and runs', () => {
  let server: FakeLangGraphServer
  before(async () => {
    server = await startFakeLangGraphServer({ assistant: 'support' })
  })
  after(() => server.close())

  const agent = (fields: Record<string, unknown> = {}) => createLangGraphAgent(LangGraphAgentConfigSchema.parse({ protocol: 'langgraph', url: `${server.url}/`, assistant_id: 'support', ...fields }), createFetch())

  test('one thread per conversation; each run sends only the new message, with the configured config and context', async () => {
    const from = server.requests.length
    await talkWith(agent({ config: { recursion_limit: 5 }, context: { user_id: 'u1' } }), ['hello', 'thanks'])
    const [create, first, second] = server.requests.slice(from)
    assert.equal(create?.path, '/threads')
    assert.equal(first?.path, second?.path)
    assert.match(first?.path ?? '', /^\/threads\/[\w-]+\/runs\/wait$/)
    assert.deepEqual(second?.body, { assistant_id: 'support', input: { messages: [{ role: 'user', content: 'thanks' }] }, config: { recursion_limit: 5 }, context: { user_id: 'u1' } })
  })

  test('usage adds up the AI messages of the run: the tool call and the answer', async () => {
    const [answer] = await talkWith(agent(), ['where is order 4321?'])
    assert.deepEqual(answer?.usage, { input: 4, output: (answer?.text ?? '').split(' ').length })
  })

  test('an unknown assistant fails the turn with the server’s words', async () => {
    await assert.rejects(talkWith(agent({ assistant_id: 'nobody' }), ['hello']), /runs\/wait answered HTTP 404 Not Found: Assistant "nobody" not found/)
  })
})
