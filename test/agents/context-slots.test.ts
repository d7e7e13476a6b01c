import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { createFetch } from '../../src/base/http/fetch.ts'
import type { Agent } from '../../src/play/agents/agent.ts'
import { createA2aAgent } from '../../src/play/agents/protocols/a2a.ts'
import { createAiSdkAgent } from '../../src/play/agents/protocols/ai-sdk.ts'
import { createJsonHttpAgent } from '../../src/play/agents/protocols/json-http.ts'
import { createLangGraphAgent } from '../../src/play/agents/protocols/langgraph.ts'
import { createOpenAIChatAgent } from '../../src/play/agents/protocols/openai-chat.ts'
import { createOpenAIResponsesAgent } from '../../src/play/agents/protocols/openai-responses.ts'
import { createStreamAgent } from '../../src/play/agents/protocols/generic-stream.ts'
import {
  A2aAgentConfigSchema,
  AiSdkAgentConfigSchema,
  JsonAgentConfigSchema,
  LangGraphAgentConfigSchema,
  OpenAIChatAgentConfigSchema,
  OpenAIResponsesAgentConfigSchema,
  SseAgentConfigSchema,
} from '../../src/records/config/config.ts'
import { startFakeA2aServer, type FakeA2aServer } from '../fakes/a2a-server.ts'
import { startFakeAgentServer, type FakeAgentServer } from '../fakes/agent-server.ts'
import { startFakeAiSdkServer, type FakeAiSdkServer } from '../fakes/ai-sdk-server.ts'
import { startFakeLangGraphServer, type FakeLangGraphServer } from '../fakes/langgraph-server.ts'
import { startFakeOpenAIServer, type FakeOpenAIServer } from '../fakes/openai-server.ts'
import { startFakeStreamServer } from '../fakes/stream-server.ts'
import { talk } from './talk.ts'

/**
 * The attempt's context in each protocol's slot, as the agent's server receives it over real HTTP on
 * 127.0.0.1 (docs/agents.md, "Context"); an empty context leaves every request as it was.
 */
const CONTEXT = { order_id: 'O-118', customer: { id: 'C-7', name: 'Ann Lee', tier: 2 }, vip: true }
const fetch = createFetch()

describe('context in a JSON agent’s request templates', () => {
  let server: FakeAgentServer
  before(async () => {
    server = await startFakeAgentServer()
  })
  after(() => server.close())

  const agentWith = (fields: Record<string, unknown>) =>
    createJsonHttpAgent(JsonAgentConfigSchema.parse({ protocol: 'json', url: `${server.url}/api/chat`, reply: 'data.answer', body: { session_id: '{session}', message: '{text}' }, ...fields }), fetch)

  test('the whole map, keys by dotted path, in the body, a header and the URL', async () => {
    const from = server.requests.length
    const agent = agentWith({
      url: `${server.url}/api/chat?customer={context.customer.id}&name={context.customer.name}`,
      headers: { 'x-order': '{context.order_id}', 'x-tier': 'tier {context.customer.tier}' },
      body: { session_id: '{session}', message: '{text}', context: '{context}', order: 'order {context.order_id}', customer: '{context.customer}', vip: '{context.vip}' },
    })
    const [answer] = await talk(agent, ['hello'], { context: CONTEXT })
    assert.equal(answer?.text, 'Hello! How can I help you today?')
    const requests = server.requests.slice(from)
    assert.equal(requests.length, 1)
    const [sent] = requests
    assert.equal(sent?.url, '/api/chat?customer=C-7&name=Ann%20Lee')
    assert.equal(sent?.headers['x-order'], 'O-118')
    assert.equal(sent?.headers['x-tier'], 'tier 2')
    assert.deepEqual(sent?.body, {
      session_id: 'session-1',
      message: 'hello',
      context: CONTEXT,
      order: 'order O-118',
      // Inside a string, a value that is not text is its JSON.
      customer: JSON.stringify(CONTEXT.customer),
      vip: 'true',
    })
  })

  test('a key the context lacks fails the turn naming the placeholder and what the context has; nothing is sent', async () => {
    const from = server.requests.length
    const agent = agentWith({ headers: { 'x-ticket': '{context.ticket.id}' } })
    await assert.rejects(talk(agent, ['hello'], { context: CONTEXT }), (error: Error) => {
      assert.match(error.message, /^\{context\.ticket\.id\} in a request template: the context map has no key "ticket" \(it has: order_id, customer, vip\)$/)
      return true
    })
    const nested = agentWith({ body: { message: '{text}', session_id: '{session}', city: '{context.customer.city}' } })
    await assert.rejects(talk(nested, ['hello'], { context: CONTEXT }), /\{context\.customer\.city\} in a request template: the context "customer" has no key "city" \(it has: id, name, tier\)/)
    assert.equal(server.requests.length, from)
  })
})

test('context in an SSE agent’s templates, as in a JSON agent’s: the URL, a header and the body', async () => {
  const server = await startFakeStreamServer()
  try {
    const agent = createStreamAgent(
      SseAgentConfigSchema.parse({
        protocol: 'sse',
        url: `${server.url}/chat/stream?order={context.order_id}`,
        headers: { 'x-customer': '{context.customer.name}' },
        body: { session_id: '{session}', message: '{text}', context: '{context}' },
        delta: 'delta',
        session: 'session_id',
      }),
      fetch,
    )
    const [answer] = await talk(agent, ['hello'], { context: CONTEXT })
    assert.equal(answer?.text, 'Hello! How can I help you today?')
    assert.equal(server.requests.length, 1)
    assert.equal(server.requests[0]?.url, '/chat/stream?order=O-118')
    assert.equal(server.requests[0]?.headers['x-customer'], 'Ann Lee')
    assert.deepEqual(server.requests[0]?.body['context'], CONTEXT)
  } finally {
    await server.close()
  }
})

describe('context in the protocols’ own slots', () => {
  let openai: FakeOpenAIServer
  let aiSdk: FakeAiSdkServer
  let a2a: FakeA2aServer
  let langgraph: FakeLangGraphServer
  before(async () => {
    ;[openai, aiSdk, a2a, langgraph] = await Promise.all([startFakeOpenAIServer(), startFakeAiSdkServer(), startFakeA2aServer({ answerAs: 'message' }), startFakeLangGraphServer()])
  })
  after(() => Promise.all([openai, aiSdk, a2a, langgraph].map((s) => s.close())))

  /** Two turns with the context, two without: what the server got each time. */
  async function bothWays<T>(agent: Agent, sent: () => readonly T[]): Promise<{ withContext: T[]; without: T[] }> {
    const from = sent().length
    await talk(agent, ['hello', 'thanks'], { context: CONTEXT })
    const middle = sent().length
    await talk(agent, ['hello', 'thanks'])
    const all = sent()
    assert.equal(all.length - from, 4, 'one request per turn')
    return { withContext: all.slice(from, middle), without: all.slice(middle) }
  }

  test('A2A: the user message’s metadata, as the official SDK server reads it; none without a context', async () => {
    for (const a2a_version of ['1.0', '0.3'] as const) {
      const agent = createA2aAgent(A2aAgentConfigSchema.parse({ protocol: 'a2a', url: a2a.url, a2a_version }), fetch)
      const { withContext, without } = await bothWays(agent, () => a2a.received)
      assert.deepEqual(
        withContext.map((m) => m.metadata),
        [CONTEXT, CONTEXT],
        `A2A ${a2a_version}`,
      )
      for (const message of without) assert.ok(message.metadata === undefined || Object.keys(message.metadata as object).length === 0, `A2A ${a2a_version}: no metadata without a context`)
    }
  })

  test('AI SDK: a `context` field of the body, over the `body` convy.yml gives; the body is unchanged without one', async () => {
    const agent = createAiSdkAgent(AiSdkAgentConfigSchema.parse({ protocol: 'ai-sdk', url: aiSdk.url, body: { tenant: 'acme', context: { channel: 'web', vip: false } } }), fetch)
    const { withContext, without } = await bothWays(agent, () => aiSdk.requests)
    for (const body of withContext) {
      assert.equal(body['tenant'], 'acme')
      assert.deepEqual(body['context'], { channel: 'web', ...CONTEXT })
    }
    for (const body of without) assert.deepEqual(body['context'], { channel: 'web', vip: false })
    const plain = createAiSdkAgent(AiSdkAgentConfigSchema.parse({ protocol: 'ai-sdk', url: aiSdk.url }), fetch)
    const { without: untouched } = await bothWays(plain, () => aiSdk.requests)
    assert.deepEqual(Object.keys(untouched[0]!).sort(), ['id', 'messages', 'trigger'])
  })

  test('LangGraph: config.configurable, merged with convy.yml’s config; the run’s context instead when the entry sends one', async () => {
    const runs = () => langgraph.requests.filter((r) => r.path.includes('/runs/'))
    const configured = createLangGraphAgent(LangGraphAgentConfigSchema.parse({ protocol: 'langgraph', url: langgraph.url, config: { recursion_limit: 10, configurable: { model: 'small', order_id: 'from convy.yml' } } }), fetch)
    const { withContext, without } = await bothWays(configured, runs)
    for (const { body } of withContext) {
      assert.deepEqual(body['config'], { recursion_limit: 10, configurable: { model: 'small', ...CONTEXT } })
      assert.equal(body['context'], undefined, 'the server refuses configurable and context together')
    }
    for (const { body } of without) assert.deepEqual(body['config'], { recursion_limit: 10, configurable: { model: 'small', order_id: 'from convy.yml' } })

    const bare = createLangGraphAgent(LangGraphAgentConfigSchema.parse({ protocol: 'langgraph', url: langgraph.url }), fetch)
    const plain = await bothWays(bare, runs)
    assert.deepEqual(plain.withContext[0]?.body['config'], { configurable: CONTEXT })
    assert.deepEqual(Object.keys(plain.without[0]!.body).sort(), ['assistant_id', 'input'])

    const contextApi = createLangGraphAgent(LangGraphAgentConfigSchema.parse({ protocol: 'langgraph', url: langgraph.url, config: { recursion_limit: 5 }, context: { locale: 'en', vip: false } }), fetch)
    const modern = await bothWays(contextApi, runs)
    assert.deepEqual(modern.withContext[0]?.body['context'], { locale: 'en', ...CONTEXT })
    assert.deepEqual(modern.withContext[0]?.body['config'], { recursion_limit: 5 })
    assert.deepEqual(modern.without[0]?.body['context'], { locale: 'en', vip: false })
  })

  test('OpenAI Responses: `metadata` of strings (JSON text for other values), over extra_body’s; none without a context', async () => {
    for (const stream of [false, true]) {
      const agent = createOpenAIResponsesAgent(OpenAIResponsesAgentConfigSchema.parse({ protocol: 'openai-responses', url: `${openai.url}/v1`, model: 'bot', stream, extra_body: { metadata: { team: 'support' } } }), fetch)
      const { withContext, without } = await bothWays(agent, () => openai.requests)
      for (const body of withContext) {
        assert.deepEqual(body['metadata'], { team: 'support', order_id: 'O-118', customer: '{"id":"C-7","name":"Ann Lee","tier":2}', vip: 'true' })
      }
      for (const body of without) assert.deepEqual(body['metadata'], { team: 'support' })
    }
    const plain = createOpenAIResponsesAgent(OpenAIResponsesAgentConfigSchema.parse({ protocol: 'openai-responses', url: `${openai.url}/v1`, model: 'bot' }), fetch)
    const { without } = await bothWays(plain, () => openai.requests)
    assert.ok(without.every((body) => !('metadata' in body)))
  })

  test('OpenAI chat: a system message with the context as JSON, after the configured system text in the same message', async () => {
    const system = (body: Record<string, unknown>) => (body['messages'] as { role: string; content: string }[]).filter((m) => m.role === 'system').map((m) => m.content)
    const json = JSON.stringify(CONTEXT, null, 2)
    for (const stream of [false, true]) {
      const agent = createOpenAIChatAgent(OpenAIChatAgentConfigSchema.parse({ protocol: 'openai-chat', url: `${openai.url}/v1`, model: 'bot', stream, system: 'You are the shop’s support agent.' }), fetch)
      const { withContext, without } = await bothWays(agent, () => openai.requests)
      for (const body of withContext) {
        assert.deepEqual(system(body), [`You are the shop’s support agent.\n\nContext for this conversation (JSON):\n${json}`])
        assert.equal((body['messages'] as { role: string }[])[0]?.role, 'system', 'first')
        assert.ok(!('metadata' in body))
      }
      for (const body of without) assert.deepEqual(system(body), ['You are the shop’s support agent.'])
    }
    const plain = createOpenAIChatAgent(OpenAIChatAgentConfigSchema.parse({ protocol: 'openai-chat', url: `${openai.url}/v1`, model: 'bot' }), fetch)
    const { withContext, without } = await bothWays(plain, () => openai.requests)
    assert.deepEqual(system(withContext[1]!), [`Context for this conversation (JSON):\n${json}`])
    assert.deepEqual(
      (without[1]!['messages'] as { role: string }[]).map((m) => m.role),
      ['user', 'assistant', 'user'],
      'without a context, only the dialogue',
    )
  })
})
