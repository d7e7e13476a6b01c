import assert from 'node:assert/strict'
import { existsSync } from 'node:fs'
import { cp, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, test } from 'node:test'
import { createAgent } from '../../src/play/agents/create-agent.ts'
import type { Fetch } from '../../src/base/http/fetch.ts'
import { AgentConfigSchema, type AgentConfig } from '../../src/records/config/config.ts'
import { startFakeAgentServer, type FakeAgentServer } from '../fakes/agent-server.ts'
import { talk } from './talk.ts'

let bot: FakeAgentServer
let projectDir: string
before(async () => {
  bot = await startFakeAgentServer()
  projectDir = await mkdtemp(join(tmpdir(), 'convy-create-agent-'))
  await writeFile(join(projectDir, 'package.json'), '{ "type": "module" }\n')
  await cp(new URL('../fixtures/agents/', import.meta.url), join(projectDir, 'agents'), { recursive: true })
})
after(async () => {
  await bot.close()
  await rm(projectDir, { recursive: true, force: true })
})

/** Fetch that counts its calls, to see that JSON and openai-chat agents use the client they are given. */
let fetchCalls = 0
const countingFetch: Fetch = (input, init) => {
  fetchCalls += 1
  return fetch(input, init)
}
const deps = () => ({ projectDir, canStripTypes: false, fetch: countingFetch })
const parse = (raw: unknown) => AgentConfigSchema.parse(raw) as AgentConfig

test('echo answers with the message, without usage', async () => {
  const created = await createAgent('echo', { protocol: 'echo' }, deps())
  assert.equal(created.kind, 'echo')
  assert.equal(created.version, null)
  assert.deepEqual(await talk(created.agent, ['same words back']), [{ text: 'same words back' }])
})

test('a JSON agent: kind, version from its configuration, fingerprint from the configuration as written', async () => {
  const raw = { protocol: 'json', url: '${BOT_URL}/api/chat', headers: { Authorization: 'Bearer ${BOT_TOKEN}' }, body: { session_id: '{session}', message: '{text}' }, reply: 'data.answer', version: '2.1' }
  const interpolated = (token: string) => parse({ ...raw, url: `${bot.url}/api/chat`, headers: { Authorization: `Bearer ${token}` } })
  const created = await createAgent('support_bot', interpolated('secret-1'), { ...deps(), rawConfig: raw })
  const rotated = await createAgent('support_bot', interpolated('secret-2'), { ...deps(), rawConfig: raw })
  const edited = await createAgent('support_bot', interpolated('secret-1'), { ...deps(), rawConfig: { ...raw, reply: 'data.text' } })

  assert.equal(created.kind, 'json')
  assert.equal(created.version, '2.1')
  assert.equal(rotated.fingerprint, created.fingerprint)
  assert.notEqual(edited.fingerprint, created.fingerprint)
  assert.match(created.fingerprint, /^[0-9a-f]{64}$/)
  const before = fetchCalls
  const [answer] = await talk(created.agent, ['hello'])
  assert.equal(answer?.text, 'Hello! How can I help you today?')
  assert.equal(fetchCalls, before + 1)
})

test('an openai-chat agent talks to its endpoint; with no raw configuration the parsed one is fingerprinted', async () => {
  const config = parse({ protocol: 'openai-chat', url: `${bot.url}/v1`, model: 'm' })
  const created = await createAgent('oai', config, deps())
  const other = await createAgent('oai', parse({ protocol: 'openai-chat', url: `${bot.url}/v1`, model: 'n' }), deps())
  assert.equal(created.kind, 'openai-chat')
  assert.equal(created.version, null)
  assert.notEqual(other.fingerprint, created.fingerprint)
  const before = fetchCalls
  const [answer] = await talk(created.agent, ['hello'])
  assert.equal(answer?.text, 'Hello! How can I help you today?')
  assert.equal(fetchCalls, before + 1)
})

test("a module agent: its own version, its source's fingerprint, and a bundle named after the agent", async () => {
  const created = await createAgent('custom', parse({ protocol: 'module', module: 'agents/support-bot.ts' }), deps())
  assert.equal(created.kind, 'module')
  assert.equal(created.version, 'support-bot 1.2')
  assert.match(created.fingerprint, /^[0-9a-f]{64}$/)
  const [answer] = await talk(created.agent, ['hi'], { session: 'q' })
  assert.equal(answer?.text, 'turn 1 (q): hi')
  assert.ok(existsSync(join(projectDir, '.convy', 'build', 'custom.mjs')))
})
