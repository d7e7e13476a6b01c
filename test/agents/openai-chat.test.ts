import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { createOpenAIChatAgent } from '../../src/play/agents/protocols/openai-chat.ts'
import { createFetch } from '../../src/base/http/fetch.ts'
import { OpenAIChatAgentConfigSchema, type OpenAIChatAgentConfig } from '../../src/records/config/config.ts'
import { startFakeAgentServer, type FakeAgentServer } from '../fakes/agent-server.ts'
import { talk, untilRequested, words } from './talk.ts'

let bot: FakeAgentServer
before(async () => {
  bot = await startFakeAgentServer({ token: 'agent-key' })
})
after(() => bot.close())

function config(fields: Partial<OpenAIChatAgentConfig> = {}): OpenAIChatAgentConfig {
  return OpenAIChatAgentConfigSchema.parse({ protocol: 'openai-chat', url: `${bot.url}/v1`, model: 'support-agent', api_key: 'agent-key', ...fields })
}

function sentSince(start: number) {
  return bot.requests.slice(start).map((r) => ({ headers: r.headers, body: r.body as Record<string, unknown> }))
}

describe('openai-chat agent', () => {
  test('resends the whole dialogue every turn, system message first, with model and extra_body', async () => {
    const agent = createOpenAIChatAgent(config({ system: 'You are the shop bot.', extra_body: { temperature: 0.2, user: 'convy' } }))
    const start = bot.requests.length
    const answers = await talk(agent, ['my name is Gus', 'where is order 321?'])
    const [first, second] = sentSince(start)

    assert.deepEqual(first?.body.messages, [
      { role: 'system', content: 'You are the shop bot.' },
      { role: 'user', content: 'my name is Gus' },
    ])
    assert.deepEqual(second?.body.messages, [
      { role: 'system', content: 'You are the shop bot.' },
      { role: 'user', content: 'my name is Gus' },
      { role: 'assistant', content: answers[0]?.text },
      { role: 'user', content: 'where is order 321?' },
    ])
    assert.equal(second?.body.model, 'support-agent')
    assert.equal(second?.body.temperature, 0.2)
    assert.equal(second?.body.user, 'convy')
    assert.equal(answers[1]?.text, 'Thanks, Gus. Order #321 is on its way and should arrive in 2 days.')
  })

  test("usage is the answer's prompt_tokens and completion_tokens", async () => {
    const agent = createOpenAIChatAgent(config())
    const start = bot.requests.length
    const [answer] = await talk(agent, ['hello, I need help'])
    const prompt = (sentSince(start)[0]?.body.messages as { content: string }[]).map((m) => m.content).join(' ')
    assert.deepEqual(answer?.usage, { input: words(prompt), output: words(answer?.text ?? '') })
  })

  test('api_key is sent as a Bearer token, with the configured headers; nothing comes from OPENAI_* variables', async (t) => {
    const saved = { key: process.env.OPENAI_API_KEY, org: process.env.OPENAI_ORG_ID }
    process.env.OPENAI_API_KEY = 'sk-the-users-own-key'
    process.env.OPENAI_ORG_ID = 'org-users'
    t.after(() => {
      for (const [name, value] of [['OPENAI_API_KEY', saved.key], ['OPENAI_ORG_ID', saved.org]] as const) {
        if (value === undefined) delete process.env[name]
        else process.env[name] = value
      }
    })
    const start = bot.requests.length
    await talk(createOpenAIChatAgent(config({ headers: { 'X-Tenant': 'acme' } })), ['hi'])
    const open = createOpenAIChatAgent(config({ api_key: undefined }))
    await assert.rejects(talk(open, ['hi']), /answered HTTP 401: .*Invalid API key/)
    const [withKey, withoutKey] = sentSince(start)
    assert.equal(withKey?.headers.authorization, 'Bearer agent-key')
    assert.equal(withKey?.headers['x-tenant'], 'acme')
    assert.equal(withoutKey?.headers.authorization, undefined)
    assert.equal(withoutKey?.headers['openai-organization'], undefined)
  })
})

// The same through the built-in fetch and through the HTTP client a run uses (src/base/http/fetch.ts).
for (const [client, fetch] of [['built-in fetch', undefined], ['undici client', createFetch()]] as const) {
  describe(`openai-chat failures (${client})`, () => {
    test('a server error names the endpoint and status, and is not retried', async () => {
      bot.failNext('500')
      const start = bot.requests.length
      await assert.rejects(talk(createOpenAIChatAgent(config(), fetch), ['hi']), new RegExp(`^Error: POST ${bot.url}/v1/chat/completions answered HTTP 500: the bot crashed$`))
      assert.equal(bot.requests.length - start, 1)
    })

    test('a 200 with no choices, or not JSON at all, is a failed turn that shows what came back', async () => {
      bot.failNext('missing-field')
      await assert.rejects(talk(createOpenAIChatAgent(config(), fetch), ['hi']), /the chat completion has no choices\. The answer was: \{"id":"chatcmpl-fake"/)
      bot.failNext('not-json')
      await assert.rejects(talk(createOpenAIChatAgent(config(), fetch), ['hi']), /the chat completion has no choices\. The answer was: "<html>/)
    })

    test('a hanging agent is stopped by the signal, which rejects with its own reason', { timeout: 60_000 }, async () => {
      // The fake never answers: only the signal, aborted once the agent has the request, can end the turn.
      bot.failNext('hang')
      const start = bot.requests.length
      const stop = new AbortController()
      const reason = new DOMException('the turn timed out', 'TimeoutError')
      void untilRequested(bot.requests, start + 1).then(() => stop.abort(reason))
      await assert.rejects(talk(createOpenAIChatAgent(config(), fetch), ['hi'], { signal: stop.signal }), (error) => error === reason)
      assert.equal(bot.requests.length - start, 1, 'sent once, not retried')
    })

    test('an unreachable agent says so', async () => {
      const gone = await startFakeAgentServer()
      await gone.close()
      await assert.rejects(talk(createOpenAIChatAgent(config({ url: `${gone.url}/v1` }), fetch), ['hi']), /could not reach POST http:\/\/127\.0\.0\.1:\d+\/v1\/chat\/completions: .*ECONNREFUSED/)
    })
  })
}
