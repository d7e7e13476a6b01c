import assert from 'node:assert/strict'
import { readFile } from 'node:fs/promises'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { after, before, describe, test } from 'node:test'
import { judgeByRule, scriptedUser, startFakeModelServer, type FakeModelServer } from '../../src/entry/testing/fake-model-server.ts'
import { readAllAttempts } from '../../src/records/journal/read-run.ts'
import type { Attempt } from '../../src/records/journal/records.ts'
import { makeProject, onlyRun, runInProcess } from './harness.ts'
import { modelsYml } from '../support/convy-yml.ts'

/**
 * Limits per attempt and stop_if, through the CLI. The agent answers each message after 30 ms with
 * 30 tokens in and 20 out, so what each limit sees is known: 50 tokens an answer, and every answer
 * and attempt longer than a limit of 1 ms.
 */
describe('limits per attempt', () => {
  let url: string
  let close: () => Promise<void>
  before(async () => {
    const server = createServer((req, res) => {
      req.resume()
      req.on('end', () => setTimeout(() => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ answer: 'ok', usage: { in: 30, out: 20 } })), 30))
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
    close = () => new Promise<void>((resolve) => server.close(() => resolve()))
  })
  after(() => close())

  async function play(limits: string, agentLimits = ''): Promise<{ attempt: Attempt; report: string }> {
    const agent = `agents:\n  bot:\n    url: \${BOT}/chat\n    body: { message: "{text}" }\n    reply: answer\n    tokens: [usage.in, usage.out]\n    price: [1000, 1000]\n${agentLimits}`
    const dir = await makeProject({
      'convy.yml': modelsYml({ apiKey: 'k', user: null, judge: null }) + agent,
      'scenarios/three.yml': `script: [one, two, three]\nchecks: [{ contains: ok }]\n${limits}`,
    })
    const result = await runInProcess(['run', 'bot', '-k', '1'], { cwd: dir, env: { BOT: url } })
    assert.equal(result.code, 0, result.stderr)
    const run = await onlyRun(dir, 'bot')
    const [attempt] = await readAllAttempts(run)
    return { attempt: attempt!, report: await readFile(join(run, 'report.html'), 'utf8') }
  }

  const limitChecks = (a: Attempt) => a.checks.filter((c) => c.kind === 'limit')

  test('answer_ms: the first answer past it, with its time and how many were', async () => {
    const { attempt, report } = await play('limits: { answer_ms: 1 }\n')
    assert.equal(attempt.verdict, 'failed')
    assert.equal(attempt.endedBy, 'user_stop')
    const [check] = limitChecks(attempt)
    assert.equal(check!.value, 'answer_ms: 1')
    assert.equal(check!.pass, false)
    assert.match(check!.detail, /^answer 1 took [\d,]+ ms, limit 1 ms \(3 answers past it\)$/)
    assert.ok(report.includes(check!.detail), 'the report shows the failed limit')
  })

  test('attempt_ms ends the attempt at the answer that passes it', async () => {
    const { attempt } = await play('limits: { attempt_ms: 1 }\n')
    assert.equal(attempt.verdict, 'failed')
    assert.equal(attempt.endedBy, 'limit')
    assert.deepEqual(attempt.turns.map((t) => t.role), ['user', 'agent'])
    assert.match(limitChecks(attempt)[0]!.detail, /^the attempt ran [\d,]+ ms, limit 1 ms$/)
  })

  test("agent_tokens ends the attempt once the agent's tokens pass it", async () => {
    const { attempt } = await play('limits: { agent_tokens: 60 }\n')
    assert.equal(attempt.endedBy, 'limit')
    assert.equal(attempt.turns.length, 4)
    assert.deepEqual(limitChecks(attempt), [{ kind: 'limit', value: 'agent_tokens: 60', pass: false, detail: 'the agent used 100 tokens, limit 60' }])
  })

  test("cost_usd: the agent's tokens at its price", async () => {
    const { attempt } = await play('limits: { cost_usd: 0.1 }\n')
    assert.equal(attempt.verdict, 'failed')
    assert.deepEqual(limitChecks(attempt), [{ kind: 'limit', value: 'cost_usd: 0.1', pass: false, detail: "the agent's tokens cost $0.15, limit $0.10" }])
  })

  test("limits held are checks that pass, with the figure; the scenario's override the agent's key by key", async () => {
    const { attempt } = await play('limits: { agent_tokens: 1000 }\n', '    limits: { agent_tokens: 10, answer_ms: 600000 }\n')
    assert.equal(attempt.verdict, 'passed')
    assert.deepEqual(
      limitChecks(attempt).map((c) => [c.value, c.pass, c.detail.replace(/[\d,]+ ms,/, 'N ms,')]),
      [
        ['answer_ms: 600000', true, 'the slowest answer took N ms, limit 600,000 ms'],
        ['agent_tokens: 1000', true, 'the agent used 150 tokens, limit 1,000'],
      ],
    )
  })
})

describe('stop_if: claims the judge checks after each answer', () => {
  let models: FakeModelServer
  before(async () => {
    models = await startFakeModelServer({
      user: scriptedUser(['hello', 'I want a refund', 'still there?']),
      judge: judgeByRule((claim, dialogue) => (claim.includes('refund') ? dialogue.some((line) => line.role === 'agent' && line.text.includes('refund')) : true)),
    })
  })
  after(() => models.close())

  const scenario = 'user: Ask for a refund.\njudge:\n  - The agent was polite\nstop_if:\n  - The agent talked about a refund\n'

  test('the first claim that holds ends the attempt, failed, with a check naming it; one judge call per answer until then', async () => {
    const dir = await makeProject({ 'convy.yml': modelsYml({ apiKey: 'k' }) + 'agents: {}\n', 'scenarios/refund.yml': scenario })
    const result = await runInProcess(['run', 'echo', '-k', '1'], { cwd: dir, env: { CONVY_BASE_URL: models.url } })
    assert.equal(result.code, 0, result.stderr)
    const [attempt] = await readAllAttempts(await onlyRun(dir, 'echo'))
    assert.equal(attempt!.verdict, 'failed')
    assert.equal(attempt!.endedBy, 'stop_if')
    assert.deepEqual(attempt!.checks, [{ kind: 'stop_if', value: 'The agent talked about a refund', pass: false, detail: 'held after answer 2: fake judge: holds' }])
    assert.deepEqual(attempt!.claims, [])
    // After answer 1 and answer 2; the judge is not asked about the claims of a conversation already lost.
    assert.deepEqual(models.requests.map((r) => r.kind).filter((kind) => kind === 'user' || kind === 'judge'), ['user', 'judge', 'user', 'judge'])
  })

  test('--smoke calls no judge: stop_if is not checked, and the run says so', async () => {
    models.reset()
    const dir = await makeProject({ 'convy.yml': modelsYml({ apiKey: 'k' }) + 'agents: {}\n', 'scenarios/refund.yml': `${scenario}script: [hello, refund please]\n` })
    const result = await runInProcess(['run', 'echo', '-k', '1', '--smoke'], { cwd: dir, env: { CONVY_BASE_URL: models.url } })
    assert.match(result.stderr, /warning: --smoke calls no judge, so the stop_if claims of 1 scenario are not checked/)
    assert.deepEqual(models.requests.filter((r) => r.kind === 'user' || r.kind === 'judge'), [])
    const [attempt] = await readAllAttempts(await onlyRun(dir, 'echo'))
    assert.equal(attempt!.endedBy, 'user_stop')
  })
})
