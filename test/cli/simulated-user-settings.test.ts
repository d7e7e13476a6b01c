import assert from 'node:assert/strict'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { after, before, describe, test } from 'node:test'
import { fakeReply, startFakeModelServer, type FakeModelServer, type RecordedRequest } from '../../src/entry/testing/fake-model-server.ts'
import { STOP_WORD } from '../../src/play/simulated-user/simulated-user-prompt.ts'
import { readAllAttempts } from '../../src/records/journal/read-run.ts'
import type { RunManifest } from '../../src/records/journal/records.ts'
import { startFakeAgentServer, type FakeAgentServer } from '../fakes/agent-server.ts'
import { chatBotYml } from '../support/convy-yml.ts'
import { makeProject, onlyRun, runInProcess } from './harness.ts'

/**
 * A scenario's `simulated_user: { model, temperature, max_tokens }` reaches the gateway (the fake
 * model server, a real HTTP server) for that scenario's lines only; the others keep convy.yml's
 * `models.user` and `models.temperature`; the judge stays the project's. Each attempt's user cost
 * is priced by the model that spoke.
 */
const scenario = (who: string, settings = '') => `user: |
  You are ${who}. Say hello, then stop.
${settings}judge:
  - The agent greeted the user
`

const CONVY_YML = (userLine: string) => `models:
  base_url: \${CONVY_BASE_URL}
${userLine}  judge: judge-model
  temperature: 0.9
  prices:
    user-model: [1, 1]
    scenario-user: [10, 20]
agents:
${chatBotYml('support_bot')}`

describe("a scenario's own settings for the simulated user, through a whole run", () => {
  let models: FakeModelServer
  let bot: FakeAgentServer
  before(async () => {
    models = await startFakeModelServer({
      handler: ({ user, body }) => {
        if (!user) return undefined
        // As OpenAI's reasoning models do: `max_tokens` is refused, `max_completion_tokens` taken.
        if (body['model'] === 'reasoning-user' && 'max_tokens' in body) return fakeReply.error(400, "Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.")
        const said = user.dialogue.filter((line) => line.role === 'user').length
        return fakeReply.text(said === 0 ? 'hello' : STOP_WORD, { inputTokens: 1000, outputTokens: 100 })
      },
    })
    bot = await startFakeAgentServer()
  })
  after(async () => {
    await models.close()
    await bot.close()
  })

  const userCalls = (from: number, who: string): RecordedRequest[] =>
    models.requests.slice(from).filter((r) => r.kind === 'user' && JSON.stringify(r.body).includes(`You are ${who}.`))
  const bodyOf = (r: RecordedRequest) => r.body as Record<string, unknown>

  test('model, temperature and max_tokens per scenario; convy.yml’s elsewhere; the judge unchanged; costs priced by the model that spoke', async () => {
    const dir = await makeProject({
      'convy.yml': CONVY_YML('  user: user-model\n'),
      'scenarios/own.yml': scenario('Ann', 'simulated_user: { model: scenario-user, temperature: 0.2, max_tokens: 60 }\n'),
      'scenarios/default.yml': scenario('Bob'),
    })
    const from = models.requests.length
    const result = await runInProcess(['run', 'support_bot', '-k', '1'], { cwd: dir, env: { CONVY_BASE_URL: models.url, BOT_URL: bot.url } })
    assert.equal(result.code, 0, result.stderr)

    const own = userCalls(from, 'Ann')
    assert.equal(own.length, 2, 'a line, then the stop')
    for (const r of own) {
      assert.equal(bodyOf(r)['model'], 'scenario-user')
      assert.equal(bodyOf(r)['temperature'], 0.2)
      assert.equal(bodyOf(r)['max_tokens'], 60)
    }
    const usual = userCalls(from, 'Bob')
    assert.equal(usual.length, 2)
    for (const r of usual) {
      assert.equal(bodyOf(r)['model'], 'user-model')
      assert.equal(bodyOf(r)['temperature'], 0.9)
      assert.ok(!('max_tokens' in bodyOf(r)) && !('max_completion_tokens' in bodyOf(r)), 'no limit unless the scenario sets one')
    }
    const judged = models.requests.slice(from).filter((r) => r.kind === 'judge')
    assert.equal(judged.length, 2)
    assert.deepEqual(judged.map((r) => bodyOf(r)['model']), ['judge-model', 'judge-model'])

    const run = await onlyRun(dir, 'support_bot')
    const attempts = await readAllAttempts(run)
    const userUse = Object.fromEntries(attempts.map((a) => [a.scenario, a.models.user]))
    assert.equal(userUse['own']?.model, 'scenario-user')
    assert.equal(userUse['own']?.costUsd, (2000 * 10 + 200 * 20) / 1e6)
    assert.equal(userUse['default']?.model, 'user-model')
    assert.equal(userUse['default']?.costUsd, (2000 * 1 + 200 * 1) / 1e6)
    const manifest = JSON.parse(await readFile(join(run, 'run.json'), 'utf8')) as RunManifest
    assert.deepEqual(manifest.scenarios.find((s) => s.id === 'own')?.simulatedUser, { model: 'scenario-user', temperature: 0.2, maxTokens: 60 })
    assert.equal(manifest.models.user, 'user-model')
  })

  test('without models.user, scenarios that name their own model need none; max_tokens becomes max_completion_tokens where refused', async () => {
    const dir = await makeProject({
      'convy.yml': CONVY_YML(''),
      'scenarios/own.yml': scenario('Cleo', 'simulated_user: { model: reasoning-user, max_tokens: 80 }\n'),
    })
    const from = models.requests.length
    const result = await runInProcess(['run', 'support_bot', '-k', '1'], { cwd: dir, env: { CONVY_BASE_URL: models.url, BOT_URL: bot.url } })
    assert.equal(result.code, 0, result.stderr)
    const calls = userCalls(from, 'Cleo').map(bodyOf)
    // The first try is refused and learnt from; every later call of the run asks the right way at once.
    assert.deepEqual(
      calls.map((b) => [b['model'], b['max_tokens'], b['max_completion_tokens']]),
      [
        ['reasoning-user', 80, undefined],
        ['reasoning-user', undefined, 80],
        ['reasoning-user', undefined, 80],
      ],
    )
    assert.ok(calls.every((b) => b['temperature'] === 0.9), 'convy.yml’s temperature where the scenario sets none')
  })

  test('with no model named in convy.yml, a scenario’s own model still has the gateway checked before the run starts', async () => {
    const dir = await makeProject({
      'convy.yml': `models:\n  base_url: \${CONVY_BASE_URL}\nagents:\n${chatBotYml('support_bot')}`,
      'scenarios/own.yml': 'user: You are Eve. Say hello, then stop.\nsimulated_user: { model: scenario-user }\nchecks:\n  - contains: hello\n',
    })
    const from = models.requests.length
    const result = await runInProcess(['run', 'support_bot', '-k', '1'], { cwd: dir, env: { CONVY_BASE_URL: models.url, BOT_URL: bot.url } })
    assert.equal(result.code, 0, result.stderr)
    const seen = models.requests.slice(from).map((r) => `${r.method} ${r.path} ${r.kind === 'user' ? String(bodyOf(r)['model']) : ''}`.trim())
    assert.deepEqual(seen, ['GET /v1/models', 'POST /v1/chat/completions scenario-user', 'POST /v1/chat/completions scenario-user'])
  })

  test('a scenario with a simulated user and no model of its own still needs models.user', async () => {
    const dir = await makeProject({ 'convy.yml': CONVY_YML(''), 'scenarios/own.yml': scenario('Dan', 'simulated_user: { temperature: 0.1 }\n') })
    const result = await runInProcess(['run', 'support_bot', '-k', '1'], { cwd: dir, env: { CONVY_BASE_URL: models.url, BOT_URL: bot.url } })
    assert.equal(result.code, 2)
    assert.match(result.stderr, /models\.user is not set, and the selected scenarios need the simulated user/)
  })
})
