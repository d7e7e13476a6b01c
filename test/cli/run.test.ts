import assert from 'node:assert/strict'
import { createServer, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { readdir, readFile, stat, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { after, before, describe, test } from 'node:test'
import { startFakeModelServer, scriptedUser, judgeByRule, fakeReply, type FakeModelServer } from '../../src/entry/testing/fake-model-server.ts'
import { startFakeAgentServer, type FakeAgentServer } from '../fakes/agent-server.ts'
import { readAllAttempts, readAttempts } from '../../src/records/journal/read-run.ts'
import { dollars } from '../../src/views/page/format.ts'
import { Interrupted } from '../../src/base/shared/errors.ts'
import { allText, makeProject, onlyRun, runInProcess } from './harness.ts'
import { chatBotYml, convyYml } from '../support/convy-yml.ts'

const API_KEY = 'sk-convy-test-0123456789'
const BOT_TOKEN = 'bot-token-abcdef'

const CONVY_YML = convyYml({
  models: { apiKey: '${CONVY_API_KEY}', prices: { 'judge-model': [2, 8] } },
  agents: [chatBotYml('support_bot', { authorization: 'Bearer ${BOT_TOKEN}', tokens: true })],
})

const SCENARIOS = {
  'scenarios/order.yml': `user: |
  Your order is late. Give the order number 4821 only when asked.
judge:
  - The agent asked for the order number
  - The agent said the order is on its way
max_turns: 4
`,
  'scenarios/scripted.yml': `script:
  - hello, my name is Ann
  - where is my order?
  - it is 9000
checks:
  - contains: order number
  - regex: "order #9000"
  - not_contains: sorry
`,
}

describe('convy-ci run against a JSON agent and convy-ci’s models, over loopback', () => {
  let models: FakeModelServer
  let bot: FakeAgentServer
  let env: Record<string, string>
  before(async () => {
    models = await startFakeModelServer({
      apiKey: API_KEY,
      user: scriptedUser(['where is my order?', 'the number is 4821', 'thanks ###STOP###']),
      judge: judgeByRule((claim, dialogue) => {
        const answers = dialogue.filter((l) => l.role === 'agent').map((l) => l.text.toLowerCase()).join('\n')
        return claim.includes('asked for the order number') ? answers.includes('order number') : answers.includes('on its way')
      }),
    })
    bot = await startFakeAgentServer({ token: BOT_TOKEN })
    env = { CONVY_BASE_URL: models.url, CONVY_API_KEY: API_KEY, BOT_URL: bot.url, BOT_TOKEN }
  })
  after(async () => {
    await models.close()
    await bot.close()
  })

  test('a whole run: the run folder, verdicts, turns, tokens, model use, no secrets written', async () => {
    const dir = await makeProject({ 'convy.yml': CONVY_YML, ...SCENARIOS })
    const userCallsBefore = models.requests.filter((r) => r.kind === 'user').length
    const result = await runInProcess(['run', 'support_bot', '-k', '2', '--parallel', '3'], { cwd: dir, env })
    assert.equal(result.code, 0, result.stderr)
    const runFolder = await onlyRun(dir, 'support_bot')
    const manifest = JSON.parse(await readFile(join(runFolder, 'run.json'), 'utf8'))
    assert.equal(manifest.state, 'finished')
    assert.equal(manifest.format, 1)
    assert.match(manifest.id, /^support_bot\/\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d_[0-9a-f]{4}$/)
    assert.deepEqual(manifest.models.user, 'user-model')
    assert.deepEqual(manifest.settings.k, 2)
    assert.deepEqual(manifest.scenarios.map((s: { id: string }) => s.id), ['order', 'scripted'])
    assert.match(manifest.agent.fingerprint, /^[0-9a-f]{64}$/)
    assert.ok(manifest.finishedAt)

    const attempts = await readAllAttempts(runFolder)
    assert.equal(attempts.length, 4)
    assert.deepEqual(attempts.map((a) => `${a.scenario}#${a.attempt}`).sort(), ['order#1', 'order#2', 'scripted#1', 'scripted#2'])
    // The report read these lines as the run's own, without the schema: the schema finds them whole
    // and reads them as they are.
    const asWritten: unknown[] = []
    for await (const attempt of readAttempts(runFolder, undefined, { ownLines: true })) asWritten.push(attempt)
    assert.deepEqual(asWritten, attempts)
    for (const attempt of attempts) assert.equal(attempt.verdict, 'passed', JSON.stringify(attempt))

    const order = attempts.find((a) => a.scenario === 'order')!
    assert.deepEqual(order.turns.filter((t) => t.role === 'user').map((t) => t.text), ['where is my order?', 'the number is 4821', 'thanks'])
    assert.equal(order.turns.length, 6)
    assert.ok(order.turns.filter((t) => t.role === 'agent').every((t) => t.tokens && t.tokens.output > 0 && t.seconds >= 0))
    assert.deepEqual(order.claims.map((c) => c.pass), [true, true])
    assert.equal(order.models.user?.calls, 3)
    assert.equal(order.models.judge?.calls, 1)
    assert.ok((order.models.judge?.costUsd ?? 0) > 0)
    assert.equal(order.models.user?.costUsd, null, 'no price was given for the user model')
    assert.equal(models.requests.filter((r) => r.kind === 'user').length - userCallsBefore, 6)

    const scripted = attempts.find((a) => a.scenario === 'scripted')!
    assert.deepEqual(scripted.checks.map((c) => c.pass), [true, true, true])
    assert.equal(scripted.models.user, null)
    assert.equal(scripted.models.judge, null)

    const written = await allText(join(dir, 'results'))
    for (const secret of [API_KEY, BOT_TOKEN, models.url, bot.url]) assert.ok(!written.includes(secret), `${secret} was written to results/`)
    assert.ok(!result.stdout.includes(API_KEY) && !result.stderr.includes(API_KEY))
    assert.match(result.stdout, /support_bot: pass rate 100% · 4 of 4/)
    // Only the judge is priced, and only the judged scenario calls it: 2 of 4 attempts carry a cost.
    const judgeCost = attempts.reduce((sum, a) => sum + (a.models.judge?.costUsd ?? 0), 0)
    assert.ok(judgeCost > 0)
    assert.ok(result.stdout.includes(` · convy-ci's models ${dollars(judgeCost)} (2 of 4 attempts priced)\n`), result.stdout)
  })

  test('--smoke calls no model: scripts and a greeting, checks only', async () => {
    const dir = await makeProject({ 'convy.yml': CONVY_YML, ...SCENARIOS })
    const before = models.requests.length
    // Without the model variables: a smoke run must not need them.
    const result = await runInProcess(['run', 'support_bot', '--smoke'], { cwd: dir, env: { BOT_URL: bot.url, BOT_TOKEN } })
    assert.equal(result.code, 0, result.stderr)
    assert.equal(models.requests.length, before)
    const attempts = await readAllAttempts(await onlyRun(dir, 'support_bot'))
    const order = attempts.find((a) => a.scenario === 'order')!
    assert.deepEqual(order.turns.map((t) => t.role), ['user', 'agent'])
    assert.equal(order.turns[0]?.text, 'Hello!')
    assert.deepEqual(order.claims, [])
    // The order scenario has only claims for the judge: under --smoke nothing decides it, and a run
    // that decided nothing must not read as passing.
    assert.equal(order.verdict, 'not_decided')
    assert.equal(attempts.find((a) => a.scenario === 'scripted')!.verdict, 'passed')
    assert.match(result.stdout, /support_bot: pass rate 100% · 1 of 1 counted \(of 2 attempts\) · 1 not decided \(no check, and the judge was not asked: left out of the pass rate\)/)
    const page = await readFile(join(await onlyRun(dir, 'support_bot'), 'report.html'), 'utf8')
    assert.match(page, />Not decided<\/span>/)
  })

  test('--smoke on judge-only scenarios decides nothing: no pass rate at all', async () => {
    const dir = await makeProject({ 'convy.yml': CONVY_YML, 'scenarios/order.yml': SCENARIOS['scenarios/order.yml'] })
    const result = await runInProcess(['run', 'support_bot', '--smoke', '-k', '2'], { cwd: dir, env: { BOT_URL: bot.url, BOT_TOKEN } })
    assert.equal(result.code, 0, result.stderr)
    assert.match(result.stdout, /support_bot: pass rate none · 0 of 2 attempts counted \(below 50%\) · 2 not decided/)
    assert.doesNotMatch(result.stdout, /100%/)
  })

  test('a failing agent is recorded as agent_error, the judge is not asked, exit 1', async () => {
    const dir = await makeProject({ 'convy.yml': CONVY_YML, 'scenarios/s.yml': 'script: [hello, "[fail:500] again"]\njudge: [The agent greets]\n' })
    const judgeCalls = models.requests.filter((r) => r.kind === 'judge').length
    const result = await runInProcess(['run', 'support_bot', '--scenarios', 's'], { cwd: dir, env })
    assert.equal(result.code, 1)
    const [attempt] = await readAllAttempts(await onlyRun(dir, 'support_bot'))
    assert.ok(attempt)
    assert.equal(attempt.verdict, 'agent_error')
    assert.match(attempt.error ?? '', /^turn 2: .*500/)
    assert.equal(attempt.turns.at(-1)?.role, 'agent')
    assert.match(attempt.turns.at(-1)?.error ?? '', /500/)
    assert.equal(models.requests.filter((r) => r.kind === 'judge').length, judgeCalls)
    assert.match(result.stdout, /1 agent error/)
    // The summary quotes what went wrong, not only how often.
    assert.match(result.stdout, /errors, most frequent first:\n {2}1 × agent error: .*500/)
  })

  test("a judge that answers garbage gives no verdict, never a fail; exit 1", async () => {
    const dir = await makeProject({ 'convy.yml': CONVY_YML, 'scenarios/s.yml': 'script: [hello]\njudge: [The agent greets]\n' })
    models.enqueue(fakeReply.garbage())
    const result = await runInProcess(['run', 'support_bot'], { cwd: dir, env: { ...env } })
    assert.equal(result.code, 1)
    const [attempt] = await readAllAttempts(await onlyRun(dir, 'support_bot'))
    assert.ok(attempt)
    assert.equal(attempt.verdict, 'no_verdict')
    assert.match(attempt.error ?? '', /judge \(judge-model\) gave no verdict/)
    assert.ok((attempt.models.judge?.tries ?? 0) >= 1)
  })

  test('bad input stops everything before a run folder is made: exit 2, the variable named', async () => {
    const dir = await makeProject({ 'convy.yml': CONVY_YML, ...SCENARIOS })
    const result = await runInProcess(['run', 'support_bot'], { cwd: dir, env: { ...env, BOT_TOKEN: '' } })
    assert.equal(result.code, 2)
    assert.match(result.stderr, /convy\.yml:11: agents\.support_bot\.headers\.Authorization uses \$\{BOT_TOKEN\}, which is not set/)
    await assert.rejects(stat(join(dir, 'results')))
  })

  test('a key the model gateway refuses stops the run before anything is played: exit 2', async () => {
    const dir = await makeProject({ 'convy.yml': CONVY_YML, ...SCENARIOS })
    const result = await runInProcess(['run', 'support_bot'], { cwd: dir, env: { ...env, CONVY_API_KEY: 'sk-not-the-right-one' } })
    assert.equal(result.code, 2)
    assert.match(result.stderr, /refused the API key \(HTTP 401\)/)
    assert.ok(!result.stderr.includes('sk-not-the-right-one'))
    await assert.rejects(stat(join(dir, 'results')))
  })

  test('the model calls go out on the connection the gateway check opened: no second connect (or TLS handshake) before the first', async () => {
    const dir = await makeProject({ 'convy.yml': CONVY_YML, 'scenarios/order.yml': SCENARIOS['scenarios/order.yml'] })
    const before = models.requests.length
    const result = await runInProcess(['run', 'support_bot', '--parallel', '1'], { cwd: dir, env })
    assert.equal(result.code, 0, result.stderr)
    const requests = models.requests.slice(before)
    const check = requests[0]!
    assert.equal(`${check.method} ${check.path}`, 'GET /v1/models')
    assert.deepEqual(
      requests.map((r) => [r.kind, r.connection]),
      // One conversation at a time: the user's three lines, the judge and nothing else, all on the check's connection.
      [['other', check.connection], ...Array.from({ length: 3 }, () => ['user', check.connection]), ['judge', check.connection]],
    )
  })

  test('the run folder is made while the gateway answers; Ctrl+C meanwhile exits 130 and leaves no folder, no attempt played', async () => {
    // A gateway that takes the check's request and never answers it.
    const waiting: ServerResponse[] = []
    const silent = createServer((_request, response) => void waiting.push(response))
    await new Promise<void>((listening) => silent.listen(0, '127.0.0.1', listening))
    const dir = await makeProject({ 'convy.yml': CONVY_YML, ...SCENARIOS })
    const controller = new AbortController()
    const botRequests = bot.requests.length
    try {
      const running = runInProcess(['run', 'support_bot'], { cwd: dir, env: { ...env, CONVY_BASE_URL: `http://127.0.0.1:${(silent.address() as AddressInfo).port}/v1` }, signal: controller.signal })
      // The run folder is made without waiting for the answer (the gateway never gives one; the
      // minute is a guard against a hang on a busy machine, not a measure).
      for (const deadline = Date.now() + 60_000; Date.now() < deadline; await new Promise((tick) => setTimeout(tick, 10))) {
        if ((await readdir(join(dir, 'results', 'support_bot')).catch(() => [])).length > 0) break
      }
      assert.equal((await readdir(join(dir, 'results', 'support_bot'))).length, 1)
      assert.equal(waiting.length, 1)
      const aborted = Date.now()
      controller.abort(new Interrupted('interrupted by SIGINT'))
      const result = await running
      assert.equal(result.code, 130, result.stderr)
      // At once, not when the check gives up (15 s).
      assert.ok(Date.now() - aborted < 2_000, `${Date.now() - aborted} ms after Ctrl+C`)
      await assert.rejects(stat(join(dir, 'results')))
      assert.equal(bot.requests.length, botRequests)
    } finally {
      for (const response of waiting) response.destroy()
      await new Promise((closed) => silent.close(closed))
    }
  })

  test('options are checked: unknown option, bad -k, unknown agent, no agent', async () => {
    const dir = await makeProject({ 'convy.yml': CONVY_YML, ...SCENARIOS })
    const cases: [string[], RegExp][] = [
      [['run', 'support_bot', '--paralel', '2'], /unknown option --paralel — did you mean --parallel\?/],
      [['run', 'support_bot', '-k', '0'], /-k 0: expected a whole number/],
      [['run', 'supportbot'], /no agent "supportbot" — did you mean "support_bot"\?/],
      [['run'], /name the agent/],
      [['runn'], /unknown command "runn" — did you mean "run"\?/],
    ]
    for (const [argv, expected] of cases) {
      const result = await runInProcess(argv, { cwd: dir, env })
      assert.equal(result.code, 2, argv.join(' '))
      assert.match(result.stderr, expected)
    }
  })
})

test('an agent priced in convy.yml has its tokens costed, and its price does not block a resume', async () => {
  const bot = await startFakeAgentServer()
  try {
    const yml = (price: string) => `agents:\n  bot:\n    url: \${BOT_URL}/api/chat\n    body: { session_id: "{session}", message: "{text}" }\n    reply: data.answer\n    tokens: [data.usage.input_tokens, data.usage.output_tokens]\n    price: ${price}\n`
    const dir = await makeProject({ 'convy.yml': yml('[2, 10]'), 'scenarios/s.yml': 'script: [hello, where is my order 1234?]\nchecks: [{contains: "1234"}]\n' })
    const result = await runInProcess(['run', 'bot'], { cwd: dir, env: { BOT_URL: bot.url } })
    assert.equal(result.code, 0, result.stderr)
    const runFolder = await onlyRun(dir, 'bot')
    const [attempt] = await readAllAttempts(runFolder)
    assert.ok(attempt?.agentTokens && attempt.agentTokens.input > 0)
    const expected = (attempt.agentTokens.input * 2 + attempt.agentTokens.output * 10) / 1e6
    assert.ok(Math.abs((attempt.agentCostUsd ?? -1) - expected) < 1e-12, `cost ${attempt.agentCostUsd} ≠ ${expected}`)
    const manifest = JSON.parse(await readFile(join(runFolder, 'run.json'), 'utf8'))
    assert.deepEqual(manifest.agent.price, [2, 10])
    assert.match(result.stdout, new RegExp(`bot: pass rate 100% · 1 of 1 · agent \\${dollars(expected).replace('.', '\\.')}\n`))

    const { resolveAgent, loadProjectConfig } = await import('../../src/records/config/load-config.ts')
    await writeFile(join(dir, 'convy.yml'), yml('[3, 12]'))
    const repriced = resolveAgent(await loadProjectConfig(join(dir, 'convy.yml')), 'bot', { BOT_URL: bot.url })
    assert.equal(repriced.configFingerprint, manifest.agent.fingerprint)
  } finally {
    await bot.close()
  }
})
