import assert from 'node:assert/strict'
import { access, mkdtemp, readFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, test } from 'node:test'
import { compare, defineAgent, readRun, run, writeReport } from '../../src/index.ts'
import { judgeByRule, startFakeModelServer, type FakeModelServer } from '../../src/entry/testing/fake-model-server.ts'
import { historyFileBeside, writeHistory } from '../../src/records/tally/trend.ts'
import type { RunSummary } from '../../src/records/tally/run-summary.ts'

// The library as complete as the CLI: results that carry each attempt's dialogue, readRun(),
// compare() with the gate, writeReport(), and run()'s judgeSamples and shard.

const answering = (reply: (text: string) => string) => defineAgent({ conversation: () => ({ answer: async (text) => ({ text: reply(text) }) }) })
const ORDER = { id: 'order', script: ['where is my order?', 'it is 4821'], checks: [{ contains: 'on its way' }] }

describe('the library: run folders from code', () => {
  let models: FakeModelServer
  before(async () => {
    models = await startFakeModelServer({ judge: judgeByRule((claim, dialogue) => dialogue.some((l) => l.role === 'agent' && l.text.includes(claim.slice(-5)))) })
  })
  after(async () => models.close())

  test('a result carries every attempt: its dialogue, times, checks with details and endedBy; readRun() reads the same', async () => {
    const cwd = await mkdtemp(join(tmpdir(), 'convy-library-'))
    const result = await run({ cwd, agent: answering((text) => `you said: ${text}`), name: 'bot', scenarios: [ORDER], k: 2 })
    const [scenario] = result.scenarios
    assert.equal(scenario!.status, 'failing')
    assert.equal(scenario!.played.length, 2)
    const [first] = scenario!.played
    assert.equal(first!.verdict, 'failed')
    assert.equal(first!.endedBy, 'user_stop')
    assert.deepEqual(first!.dialogue.map((l) => [l.role, l.text]), [
      ['user', 'where is my order?'],
      ['agent', 'you said: where is my order?'],
      ['user', 'it is 4821'],
      ['agent', 'you said: it is 4821'],
    ])
    assert.ok(first!.dialogue.every((l) => typeof l.seconds === 'number' && l.error === null))
    assert.equal(first!.checks[0]!.pass, false)
    assert.equal(first!.checks[0]!.detail, 'none of the 2 answers contains it')
    assert.ok(Date.parse(first!.startedAt) > 0 && first!.seconds >= 0)

    const read = await readRun(result.dir!)
    assert.equal(read.id, result.id)
    assert.deepEqual(read.scenarios, result.scenarios)
    assert.equal(read.passRate, 0)
    assert.equal(read.complete, true)
  })

  test('compare(): a scenario that always passed and never passes now is Worse, and the gate fails; a run against itself is within noise', async () => {
    const cwd = await mkdtemp(join(tmpdir(), 'convy-library-'))
    const good = await run({ cwd, agent: answering(() => 'it is on its way'), name: 'bot', scenarios: [ORDER], k: 5 })
    const bad = await run({ cwd, agent: answering(() => 'no idea'), name: 'bot', scenarios: [ORDER], k: 5 })
    const worse = await compare(good, bad)
    assert.equal(worse.standing, 'worse')
    assert.deepEqual(worse.worse, ['order'])
    assert.deepEqual(worse.passRate, { before: 1, after: 0 })
    assert.equal(worse.gate.outcome, 'fail')
    assert.equal(worse.gate.fails, true)
    assert.equal((worse.details as { verdict: string }).verdict, 'worse')
    const never = await compare(good.dir!, bad.dir!, { failOn: 'never' })
    assert.equal(never.gate.fails, false)
    const same = await compare(good, good)
    assert.equal(same.standing, 'within-noise')
    assert.equal(same.gate.fails, false)
    await assert.rejects(compare(good, bad, { failOn: 'sometimes' as 'never' }), /compare\(\): failOn sometimes: expected one of worse, failing, never/)
  })

  test('compare() gates speed as `convy-ci compare` does: failOnSlower, minSpeedChangeMs, and the drift of the trend beside the after run', async () => {
    const cwd = await mkdtemp(join(tmpdir(), 'convy-library-'))
    const slowly = defineAgent({ conversation: () => ({ answer: async () => (await new Promise((r) => setTimeout(r, 300)), { text: 'it is on its way' }) }) })
    const fast = await run({ cwd, agent: answering(() => 'it is on its way'), name: 'bot', scenarios: [ORDER], k: 5 })
    const slow = await run({ cwd, agent: slowly, name: 'bot', scenarios: [ORDER], k: 5 })
    // Passing as often, so only the speed limit can fail it.
    const plain = await compare(fast, slow)
    assert.equal(plain.standing, 'within-noise')
    assert.equal(plain.gate.fails, false)
    const limited = await compare(fast, slow, { failOnSlower: 50 })
    assert.equal(limited.gate.outcome, 'fail')
    assert.match(limited.gate.reason, /slower .*fail-on-slower/)
    const coarse = await compare(fast, slow, { failOnSlower: 50, minSpeedChangeMs: 5_000 })
    assert.equal(coarse.gate.fails, false)
    await assert.rejects(compare(fast, slow, { failOnSlower: -1 }), /compare\(\): failOnSlower -1: expected a percentage, 0 or more/)

    // The default branch's runs moved their median answer time by far more than 300 ms: not the agent's doing.
    const summary = (median: number): RunSummary => ({ format: 1, run: 'bot/x', agent: 'bot', commit: null, branch: 'main', startedAt: '2026-12-01T00:00:00Z', finishedAt: null, state: 'finished', k: 5, scenarios: [], medianAnswerSeconds: median, costUsd: null })
    await writeHistory(historyFileBeside(slow.dir!), { branch: 'main', entries: [0.002, 2, 0.05].map((m) => ({ workflowRun: null, summary: summary(m) })) }, new Date())
    const drifting = await compare(fast, slow, { failOnSlower: 50 })
    assert.equal(drifting.gate.fails, false)
    assert.equal((drifting.details as { speed: { noise: { drift: { runs: number } | null } } }).speed.noise.drift?.runs, 3)
  })

  test('writeReport() writes the run folder\'s report.html again', async () => {
    const cwd = await mkdtemp(join(tmpdir(), 'convy-library-'))
    const result = await run({ cwd, agent: answering(() => 'on its way'), name: 'bot', scenarios: [ORDER] })
    const path = await writeReport(result)
    assert.equal(path, result.report)
    await access(path)
    assert.match(await readFile(path, 'utf8'), /order/)
    await assert.rejects(writeReport({ dir: null }), /writeReport\(\): the run was played with write: false/)
  })

  test('judgeSamples asks the judge that many times per attempt; shard plays its slice', async () => {
    const cwd = await mkdtemp(join(tmpdir(), 'convy-library-'))
    const judged = { id: 'judged', script: ['hello'], judge: ['The agent said hello'] }
    const asked = models.requests.filter((r) => r.kind === 'judge').length
    const result = await run({ cwd, agent: answering((t) => t), name: 'bot', scenarios: [judged], judgeSamples: 3, models: { base_url: models.url, judge: 'judge-model' } })
    assert.equal(models.requests.filter((r) => r.kind === 'judge').length - asked, 3)
    assert.deepEqual(result.scenarios[0]!.played[0]!.claims[0]!.votes, [true, true, true])
    const manifest = JSON.parse(await readFile(join(result.dir!, 'run.json'), 'utf8')) as { settings: { judgeSamples?: number } }
    assert.equal(manifest.settings.judgeSamples, 3)

    const sharded = await run({ cwd, agent: answering(() => 'on its way'), name: 'bot', scenarios: [ORDER], k: 5, shard: { index: 2, total: 2 } })
    assert.equal(sharded.attempts, 2)
    assert.equal(sharded.complete, true)
    await assert.rejects(run({ cwd, agent: 'echo', scenarios: [ORDER], shard: { index: 3, total: 2 } }), /shard: index must be at most total/)
  })
})
