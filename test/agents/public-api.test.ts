import assert from 'node:assert/strict'
import { cp, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, test } from 'node:test'
import { loadModuleAgent } from '../../src/play/agents/module/module-agent.ts'
import { HttpError, postJson } from '../../src/index.ts'
import { startFakeAgentServer, type FakeAgentServer } from '../fakes/agent-server.ts'
import { talk, words } from './talk.ts'

let bot: FakeAgentServer
before(async () => {
  bot = await startFakeAgentServer()
})
after(() => bot.close())

test('postJson sends JSON and returns the parsed answer', async () => {
  const answer = await postJson<{ data: { answer: string } }>(`${bot.url}/api/chat`, { session_id: 'p', message: 'hello' }, { headers: { 'X-Trace': '1' } })
  assert.equal(answer.data.answer, 'Hello! How can I help you today?')
  const request = bot.requests.at(-1)
  assert.equal(request?.method, 'POST')
  assert.equal(request?.headers['x-trace'], '1')
  assert.deepEqual(request?.body, { session_id: 'p', message: 'hello' })
})

test('postJson throws an HttpError carrying the status on a non-2xx answer', async () => {
  bot.failNext('500')
  await assert.rejects(postJson(`${bot.url}/api/chat`, { session_id: 'p', message: 'x' }), (error: unknown) => {
    assert.ok(error instanceof HttpError)
    assert.equal(error.status, 500)
    assert.match(error.excerpt, /the bot crashed/)
    return true
  })
})

test("a custom agent relays turns to an API with the running convy-ci's postJson, and its failures are failed turns", async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'convy-relay-'))
  t.after(() => rm(dir, { recursive: true, force: true }))
  await writeFile(join(dir, 'package.json'), '{ "type": "module" }\n')
  await cp(new URL('../fixtures/agents/relay.ts', import.meta.url), join(dir, 'agents', 'relay.ts'))
  process.env.RELAY_URL = bot.url
  t.after(() => delete process.env.RELAY_URL)

  const { agent } = await loadModuleAgent('agents/relay.ts', { projectDir: dir, canStripTypes: false })
  const answers = await talk(agent, ['my name is Hal', 'refund order 808'], { session: 'hal' })
  assert.equal(answers[1]?.text, 'Thanks, Hal. Order #808 is on its way and should arrive in 2 days.')
  assert.deepEqual(answers[1]?.usage, { input: words('refund order 808'), output: words(answers[1]?.text ?? '') })
  assert.deepEqual(bot.sessions.get('hal'), ['my name is Hal', 'refund order 808'])

  bot.failNext('500')
  await assert.rejects(talk(agent, ['hi']), { name: 'HttpError', message: new RegExp(`^POST ${bot.url}/api/chat answered HTTP 500`) })
})
