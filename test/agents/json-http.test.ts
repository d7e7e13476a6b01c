import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { createJsonHttpAgent } from '../../src/play/agents/protocols/json-http.ts'
import { createFetch } from '../../src/base/http/fetch.ts'
import { JsonAgentConfigSchema, type JsonAgentConfig } from '../../src/records/config/config.ts'
import { startFakeAgentServer, type FakeAgentServer } from '../fakes/agent-server.ts'
import { talk, untilRequested, words } from './talk.ts'

let bot: FakeAgentServer
before(async () => {
  bot = await startFakeAgentServer()
})
after(() => bot.close())

function config(fields: Partial<JsonAgentConfig> & { body?: unknown }): JsonAgentConfig {
  return JsonAgentConfigSchema.parse({ protocol: 'json', url: `${bot.url}/api/chat`, reply: 'data.answer', ...fields })
}

const sessionBody = { session_id: '{session}', message: '{text}' }

describe('JSON HTTP agent', () => {
  test('a multi-turn conversation keeps its session on the agent, and usage comes from the tokens paths', async () => {
    const agent = createJsonHttpAgent(config({ body: sessionBody, tokens: ['data.usage.input_tokens', 'data.usage.output_tokens'] }))
    const said = ['Hi, my name is Ann', 'I want a refund for my order', 'It is order 4711']
    const answers = await talk(agent, said, { session: 'ann-1' })

    assert.deepEqual(bot.sessions.get('ann-1'), said)
    assert.match(answers[0]?.text ?? '', /Hello, Ann/)
    assert.match(answers[1]?.text ?? '', /order number/)
    assert.match(answers[2]?.text ?? '', /Order #4711 is on its way/)
    for (const [i, answer] of answers.entries()) {
      assert.deepEqual(answer.usage, { input: words(said[i] ?? ''), output: words(answer.text ?? '') })
    }
  })

  test('two conversations with different sessions do not share state', async () => {
    const agent = createJsonHttpAgent(config({ body: sessionBody }))
    await talk(agent, ['my name is Bo'], { session: 'bo' })
    const [answer] = await talk(agent, ['hello'], { session: 'cy' })
    assert.equal(answer?.text, 'Hello! How can I help you today?')
    assert.equal(answer?.usage, undefined)
  })

  test('a nested body with "{history}" sends every message so far, the new one last', async () => {
    const body = { session_id: 'conv-{session}', history: '{history}', options: { stream: false, tags: ['{text}', 7] } }
    const agent = createJsonHttpAgent(config({ body }))
    const start = bot.requests.length
    const answers = await talk(agent, ['my name is Dee', 'where is my package? number 555'], { session: 'dee' })
    const sent = bot.requests.slice(start).map((r) => r.body)

    assert.deepEqual((sent[0] as { history?: unknown }).history, [{ role: 'user', content: 'my name is Dee' }])
    assert.equal(answers[1]?.text, 'Thanks, Dee. Order #555 is on its way and should arrive in 2 days.')
    assert.deepEqual(sent[1], {
      session_id: 'conv-dee',
      history: [
        { role: 'user', content: 'my name is Dee' },
        { role: 'assistant', content: answers[0]?.text },
        { role: 'user', content: 'where is my package? number 555' },
      ],
      options: { stream: false, tags: ['where is my package? number 555', 7] },
    })
  })

  test('a stateless agent answers from "{history}" alone', async () => {
    const agent = createJsonHttpAgent(config({ body: { history: '{history}' } }))
    const answers = await talk(agent, ['my name is Eve', 'refund my order 9001 please'])
    assert.equal(answers[1]?.text, 'Thanks, Eve. Order #9001 is on its way and should arrive in 2 days.')
  })

  test('{session} also fills the URL (encoded) and header values; method and headers are as configured', async () => {
    const agent = createJsonHttpAgent(
      config({ url: `${bot.url}/api/chat?conversation={session}`, method: 'PUT', headers: { 'X-Session': 's={session}', 'X-Key': 'k' }, body: sessionBody }),
    )
    const start = bot.requests.length
    await assert.rejects(talk(agent, ['hi'], { session: 'a b' }), /PUT .* answered HTTP 404/)
    const request = bot.requests[start]
    assert.equal(request?.method, 'PUT')
    assert.equal(request?.headers['x-session'], 's=a b')
    assert.equal(request?.headers['x-key'], 'k')
    assert.equal(request?.headers['content-type'], 'application/json')
  })

  test('the answer of an OpenAI-shaped API is read with numeric path segments', async () => {
    const agent = createJsonHttpAgent(
      config({
        url: `${bot.url}/v1/chat/completions`,
        body: { model: 'bot', messages: '{history}' },
        reply: 'choices.0.message.content',
        tokens: ['usage.prompt_tokens', 'usage.completion_tokens'],
      }),
    )
    const [answer] = await talk(agent, ['hello there'])
    assert.deepEqual(answer, { text: 'Hello! How can I help you today?', usage: { input: 2, output: words('Hello! How can I help you today?') } })
  })
})

// The same through the built-in fetch and through the HTTP client a run uses (src/base/http/fetch.ts).
for (const [client, fetch] of [['built-in fetch', undefined], ['undici client', createFetch()]] as const) {
  describe(`JSON HTTP agent failures are failed turns that explain themselves (${client})`, () => {
    const agent = () => createJsonHttpAgent(config({ body: sessionBody }), fetch)

    test('a non-2xx answer names the request and status, and quotes the body', async () => {
      bot.failNext('500')
      await assert.rejects(talk(agent(), ['hi']), (error: Error) => {
        assert.equal(error.name, 'HttpError')
        assert.equal((error as Error & { status?: number }).status, 500)
        assert.match(error.message, new RegExp(`^POST ${bot.url}/api/chat answered HTTP 500 Internal Server Error: .*the bot crashed`))
        return true
      })
    })

    test('a body that is not JSON', async () => {
      bot.failNext('not-json')
      await assert.rejects(talk(agent(), ['hi']), /answered with something that is not JSON \(HTTP 200, text\/html\): <html><body><h1>502 Bad Gateway/)
    })

    test('a missing reply path says where it broke and shows the answer', async () => {
      bot.failNext('missing-field')
      await assert.rejects(talk(agent(), ['hi']), /no reply text at "data.answer": "data" has no key "answer" \(it has: usage\)\. The answer was: \{"data"/)
    })

    test('an unreachable agent says so, with the reason fetch hides in its cause', async () => {
      const gone = await startFakeAgentServer()
      await gone.close()
      const unreachable = createJsonHttpAgent(config({ url: `${gone.url}/api/chat`, body: sessionBody }), fetch)
      await assert.rejects(talk(unreachable, ['hi']), /could not reach POST http:\/\/127\.0\.0\.1:\d+\/api\/chat: .*ECONNREFUSED/)
    })

    test('a hanging agent is stopped by the signal, which rejects with its own reason', { timeout: 60_000 }, async () => {
      // The fake never answers: only the signal, aborted once the agent has the request, can end the turn.
      bot.failNext('hang')
      const start = bot.requests.length
      const stop = new AbortController()
      const reason = new DOMException('the turn timed out', 'TimeoutError')
      void untilRequested(bot.requests, start + 1).then(() => stop.abort(reason))
      await assert.rejects(talk(agent(), ['hi'], { signal: stop.signal }), (error) => error === reason)
      assert.equal(bot.requests.length - start, 1, 'sent once, not retried')
    })

    test('a failed turn is not remembered by the session', async () => {
      bot.failNext('500')
      await assert.rejects(talk(agent(), ['my name is Fay'], { session: 'fay' }))
      assert.equal(bot.sessions.get('fay'), undefined)
    })
  })
}
