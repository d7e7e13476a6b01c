import { test, describe } from 'node:test'
import assert from 'node:assert/strict'
import OpenAI from 'openai'
import { createModels } from '../../src/play/runner/prepare.ts'
import { fakeReply, judgeByRule, scriptedUser, startFakeModelServer } from '../../src/entry/testing/fake-model-server.ts'
import { recordingContext, scenario, testModels } from './helpers.ts'

describe('fake model server', () => {
  test('speaks to the plain openai client: GET /v1/models and a chat completion with usage', async () => {
    const server = await startFakeModelServer({ models: ['fake-user', 'fake-judge'], handler: () => fakeReply.text('pong', { inputTokens: 7, outputTokens: 1 }) })
    try {
      const client = new OpenAI({ baseURL: server.url, apiKey: 'k', maxRetries: 0 })
      assert.deepEqual((await client.models.list()).data.map((m) => m.id), ['fake-user', 'fake-judge'])
      const completion = await client.chat.completions.create({ model: 'anything', messages: [{ role: 'user', content: 'ping' }] })
      assert.equal(completion.choices[0]!.message.content, 'pong')
      assert.deepEqual([completion.usage?.prompt_tokens, completion.usage?.completion_tokens], [7, 1])
      assert.deepEqual(server.requests.map((r) => [r.method, r.path, r.kind]), [['GET', '/v1/models', 'other'], ['POST', '/v1/chat/completions', 'other']])
    } finally {
      await server.close()
    }
  })

  test('a scripted user follows each conversation on its own, so conversations may run in parallel', async () => {
    const server = await startFakeModelServer({ user: scriptedUser(['first', 'second']) })
    try {
      const { user } = testModels(server.url)
      const { context } = recordingContext()
      const lines = await Promise.all([
        user.next(scenario(), [], context),
        user.next(scenario(), [{ role: 'user', text: 'first' }, { role: 'agent', text: 'ok' }], context),
        user.next(scenario(), [], context),
        user.next(scenario(), [{ role: 'user', text: 'a' }, { role: 'agent', text: 'b' }, { role: 'user', text: 'c' }, { role: 'agent', text: 'd' }], context),
      ])
      assert.deepEqual(lines, [
        { text: 'first', stop: false },
        { text: 'second', stop: false },
        { text: 'first', stop: false },
        { text: '', stop: true },
      ])
    } finally {
      await server.close()
    }
  })

  test('the user rule receives the instructions, the judge rule the claims and dialogue', async () => {
    const seen: unknown[] = []
    const server = await startFakeModelServer({
      user: ({ instructions }) => (seen.push(instructions), 'hi'),
      judge: judgeByRule((claim, dialogue) => (seen.push([claim, dialogue.length]), { pass: false, reason: `no: ${claim}` })),
    })
    try {
      const { user, judge } = testModels(server.url)
      await user.next(scenario({ user: 'Be brief.' }), [], recordingContext().context)
      const decisions = await judge.decide(scenario({ judge: ['It helped'] }), [{ role: 'user', text: 'hi' }], recordingContext().context)
      assert.deepEqual(decisions, [{ pass: false, reason: 'no: It helped' }])
      assert.deepEqual(seen, ['Be brief.', ['It helped', 1]])
    } finally {
      await server.close()
    }
  })

  test('queued replies come first, in order, then the rules answer again', async () => {
    const server = await startFakeModelServer({ user: scriptedUser(['from the script']) })
    try {
      server.enqueue(fakeReply.text('queued one'), fakeReply.text('queued two'))
      const { user } = createModels({ baseURL: server.url, userModel: 'u', timeoutSeconds: 2, maxTries: 1 })
      const texts = []
      for (let i = 0; i < 3; i++) texts.push((await user!.next(scenario(), [], recordingContext().context)).text)
      assert.deepEqual(texts, ['queued one', 'queued two', 'from the script'])
      server.enqueue(fakeReply.garbage())
      server.reset()
      assert.deepEqual(server.requests, [])
      assert.equal((await user!.next(scenario(), [], recordingContext().context)).text, 'from the script')
    } finally {
      await server.close()
    }
  })

  test('latency delays every answer', async () => {
    const server = await startFakeModelServer({ latencyMs: 80 })
    try {
      const started = Date.now()
      await testModels(server.url).user.next(scenario(), [], recordingContext().context)
      assert.ok(Date.now() - started >= 75)
    } finally {
      await server.close()
    }
  })

  test('a request it cannot place and no handler answers is a 400, an unknown route a 404', async () => {
    const server = await startFakeModelServer()
    try {
      const chat = await fetch(`${server.url}/chat/completions`, { method: 'POST', body: JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'hi' }] }) })
      assert.equal(chat.status, 400)
      assert.match(((await chat.json()) as { error: { message: string } }).error.message, /no handler/)
      assert.equal((await fetch(`${server.url}/embeddings`, { method: 'POST', body: '{}' })).status, 404)
    } finally {
      await server.close()
    }
  })

  test('close() does not wait for a stalled answer', { timeout: 5000 }, async () => {
    const server = await startFakeModelServer()
    server.enqueue(fakeReply.stall())
    const pending = fetch(`${server.url}/chat/completions`, { method: 'POST', body: JSON.stringify({ model: 'm', messages: [] }) }).then((r) => r.text())
    while (server.requests.length === 0) await new Promise((resolve) => setTimeout(resolve, 5))
    await server.close()
    await assert.rejects(pending)
  })
})
