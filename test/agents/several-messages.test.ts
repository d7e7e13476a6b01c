import assert from 'node:assert/strict'
import { mkdtemp, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, test } from 'node:test'
import { createFetch } from '../../src/base/http/fetch.ts'
import { loadModuleAgent } from '../../src/play/agents/module/module-agent.ts'
import { createA2aAgent } from '../../src/play/agents/protocols/a2a.ts'
import { createAiSdkAgent } from '../../src/play/agents/protocols/ai-sdk.ts'
import { createJsonHttpAgent } from '../../src/play/agents/protocols/json-http.ts'
import { createLangGraphAgent } from '../../src/play/agents/protocols/langgraph.ts'
import { createOpenAIResponsesAgent } from '../../src/play/agents/protocols/openai-responses.ts'
import { cutMessages, limitReplies } from '../../src/play/agents/reply-limit.ts'
import { A2aAgentConfigSchema, AiSdkAgentConfigSchema, JsonAgentConfigSchema, LangGraphAgentConfigSchema, OpenAIResponsesAgentConfigSchema } from '../../src/records/config/config.ts'
import { startFakeA2aServer, type FakeA2aServer } from '../fakes/a2a-server.ts'
import { startFakeAiSdkServer, type FakeAiSdkServer } from '../fakes/ai-sdk-server.ts'
import { startFakeLangGraphServer, type FakeLangGraphServer } from '../fakes/langgraph-server.ts'
import { startFakeOpenAIServer, type FakeOpenAIServer } from '../fakes/openai-server.ts'
import { readJson, sendJson, serve, type Served } from '../fakes/serve.ts'
import { talk } from './talk.ts'

/** Answers of several messages in one turn, from every kind of agent that can give them (docs/agents.md, "Several messages"). */
const fetch = createFetch()

describe('a JSON agent whose reply is a list', () => {
  let server: Served
  /** Answers with the JSON sent as the body's `answer`. */
  before(async () => {
    server = await serve((req, res) => void readJson(req).then((body) => sendJson(res, 200, body['answer'])))
  })
  after(() => server.close())
  // The fake answers with the map it is sent: the context, whole.
  const whole = (reply: string) => createJsonHttpAgent(JsonAgentConfigSchema.parse({ protocol: 'json', url: server.url, reply, body: { answer: '{context}' } }), fetch)
  const said = async (reply: string, json: unknown) => (await talk(whole(reply), ['hi'], { context: json as Record<string, unknown> }))[0]

  test('a list of strings is an answer of several messages; its text is them joined by blank lines', async () => {
    assert.deepEqual(await said('data.messages', { data: { messages: ['Hi, I am Ada.', 'Order O-118 shipped on Monday.'] } }), {
      text: 'Hi, I am Ada.\n\nOrder O-118 shipped on Monday.',
      messages: ['Hi, I am Ada.', 'Order O-118 shipped on Monday.'],
    })
    assert.deepEqual(await said('data.messages', { data: { messages: ['Only one.'] } }), { text: 'Only one.' }, 'a list of one is a plain answer')
  })

  test('`*` reads a path in each item of a list, passing over items without text there (Rasa’s REST channel)', async () => {
    const rasa = { replies: [{ recipient_id: 'u1', text: 'Let me check.' }, { recipient_id: 'u1', image: 'https://x/y.png' }, { recipient_id: 'u1', text: 'It shipped.' }] }
    assert.deepEqual(await said('replies.*.text', rasa), { text: 'Let me check.\n\nIt shipped.', messages: ['Let me check.', 'It shipped.'] })
    await assert.rejects(talk(whole('replies.*.txt'), ['hi'], { context: rasa }), /no reply text at "replies\.\*\.txt": no item of the list has a string at "txt"/)
    await assert.rejects(talk(whole('replies.0.*'), ['hi'], { context: rasa }), /no reply text at "replies\.0\.\*": "replies\.0" is an object, not a list for "\*"/)
  })

  test('a list with something other than strings fails the turn, saying what was there', async () => {
    await assert.rejects(talk(whole('data'), ['hi'], { context: { data: ['fine', 3] } }), /no reply text at "data": it is \["fine",3\], not a string or a list of strings/)
    // A string at the path is a plain answer, as it always was.
    assert.deepEqual(await said('data', { data: 'plain' }), { text: 'plain' })
  })
})

describe('module agents: context in every call, and answers of several messages', () => {
  let dir: string
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'convy-module-'))
    await writeFile(join(dir, 'package.json'), '{ "type": "module" }\n')
    await writeFile(
      join(dir, 'agent.mjs'),
      [
        '// The loader imports the module under its own URL: what it saw is kept where the test can read it.',
        'const seen = (globalThis.convyContextSeen ??= [])',
        'export const agent = {',
        '  conversation({ context }) {',
        "    seen.push(['conversation', context])",
        '    return {',
        '      answer(message, { context }) {',
        "        seen.push(['answer', context])",
        "        if (message === 'bad') return { messages: ['ok', 7] }",
        "        return { messages: [`Hello ${context.customer.name}.`, `Order ${context.order_id} shipped.`] }",
        '      },',
        "      close({ context }) { seen.push(['close', context]) },",
        '    }',
        '  },',
        '}',
        '',
      ].join('\n'),
    )
  })

  test('conversation(), answer() and close() each get the context; `{ messages }` is checked and recorded as several', async () => {
    const loaded = await loadModuleAgent('agent.mjs', { projectDir: dir, canStripTypes: false, loadEsbuild: async () => null })
    const context = { order_id: 'O-118', customer: { name: 'Ann' } }
    const [answer] = await talk(loaded.agent, ['where is my order?'], { context })
    assert.deepEqual(answer, { text: 'Hello Ann.\n\nOrder O-118 shipped.', messages: ['Hello Ann.', 'Order O-118 shipped.'] })
    const seen = (globalThis as { convyContextSeen?: [string, unknown][] }).convyContextSeen
    assert.deepEqual(seen, [
      ['conversation', context],
      ['answer', context],
      ['close', context],
    ])
    await assert.rejects(talk(loaded.agent, ['bad'], { context }), /agent\.mjs: answer\(\) must return \{ text: string \} or \{ messages: string\[\] \}.*but its messages are \["ok",7\]$/)
  })
})

describe('protocol agents that answer with several messages', () => {
  let a2aMessages: FakeA2aServer
  let a2aTasks: FakeA2aServer
  let aiSdk: FakeAiSdkServer
  let langgraph: FakeLangGraphServer
  let openai: FakeOpenAIServer
  before(async () => {
    ;[a2aMessages, a2aTasks, aiSdk, langgraph, openai] = await Promise.all([
      startFakeA2aServer({ answerAs: 'message', several: true }),
      startFakeA2aServer({ answerAs: 'task', several: true }),
      startFakeAiSdkServer({ preamble: 'Let me look that up.' }),
      startFakeLangGraphServer({ preamble: 'Let me look that up.' }),
      startFakeOpenAIServer({ preamble: 'Let me look that up.' }),
    ])
  })
  after(() => Promise.all([a2aMessages, a2aTasks, aiSdk, langgraph, openai].map((s) => s.close())))

  const ORDER = ['Thanks.', 'Order #4321 is on its way and should arrive in 2 days.']

  test('A2A: each text part of a message, and each artifact of a task, streamed or not', async () => {
    for (const [server, stream] of [
      [a2aMessages, false],
      [a2aTasks, false],
      [a2aTasks, true],
    ] as const) {
      const agent = createA2aAgent(A2aAgentConfigSchema.parse({ protocol: 'a2a', url: server.url, stream }), fetch)
      const [answer] = await talk(agent, ['my order is 4321'])
      assert.deepEqual(answer?.messages, ORDER)
      assert.equal(answer?.text, ORDER.join('\n\n'))
      assert.deepEqual(answer?.toolCalls?.map((c) => c.name), ['get_order'])
    }
  })

  test('AI SDK: text before a tool call and after it are two messages', async () => {
    const agent = createAiSdkAgent(AiSdkAgentConfigSchema.parse({ protocol: 'ai-sdk', url: aiSdk.url }), fetch)
    const [hello, order] = await talk(agent, ['hello', 'where is order 4321?'])
    assert.deepEqual(hello, { text: 'Hello! How can I help you today?', usage: hello?.usage })
    assert.deepEqual(order?.messages, ['Let me look that up.', 'Thanks. Order #4321 is on its way and should arrive in 2 days.'])
    assert.deepEqual(order?.toolCalls?.map((c) => c.name), ['get_order'])
  })

  test('LangGraph: every AI message of the run that says something, not only the last', async () => {
    for (const stream of [false, true]) {
      const agent = createLangGraphAgent(LangGraphAgentConfigSchema.parse({ protocol: 'langgraph', url: langgraph.url, stream }), fetch)
      const [hello, order] = await talk(agent, ['hello', 'where is order 4321?'])
      assert.equal(hello?.messages, undefined)
      assert.deepEqual(order?.messages, ['Let me look that up.', 'Thanks. Order #4321 is on its way and should arrive in 2 days.'])
    }
  })

  test('OpenAI Responses: each output message item', async () => {
    const agent = createOpenAIResponsesAgent(OpenAIResponsesAgentConfigSchema.parse({ protocol: 'openai-responses', url: `${openai.url}/v1`, model: 'bot' }), fetch)
    const [hello, order] = await talk(agent, ['hello', 'where is order 4321?'])
    assert.equal(hello?.messages, undefined)
    assert.equal(hello?.text, 'Hello! How can I help you today?')
    assert.deepEqual(order?.messages, ['Let me look that up.', 'Thanks. Order #4321 is on its way and should arrive in 2 days.'])
    assert.deepEqual(order?.toolCalls?.map((c) => c.name), ['get_order'])
  })
})

describe('the size limit holds for several messages as a whole', () => {
  test('messages that fit are kept, the one that crosses the limit is cut and marked, later ones counted', () => {
    assert.deepEqual(cutMessages(['aaaa', 'bbbb'], 10), ['aaaa', 'bbbb'])
    const cut = cutMessages(['aaaa', 'bbbbbbbb', 'cc'], 10)
    assert.equal(cut.length, 2)
    assert.equal(cut[0], 'aaaa')
    assert.equal(cut[1], 'bbbb\n[cut by convy-ci: the answer was 18 bytes in 3 messages; the first 10 are kept, 1 later message(s) dropped (max_reply_kb)]')
  })

  test('through the agent wrapper: the joined text follows the kept messages', async () => {
    const agent = limitReplies({ conversation: () => ({ answer: () => ({ messages: ['x'.repeat(6), 'y'.repeat(6)] }) }) }, 8)
    const [answer] = await talk(agent, ['hi'])
    assert.deepEqual(answer?.messages, ['xxxxxx', '\n[cut by convy-ci: the answer was 14 bytes in 2 messages; the first 8 are kept (max_reply_kb)]'])
    assert.equal(answer?.text, answer?.messages?.join('\n\n'))
  })
})
