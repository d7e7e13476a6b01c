import assert from 'node:assert/strict'
import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { after, before, beforeEach, describe, test } from 'node:test'
import { judgeByRule, startFakeModelServer, type FakeModelServer } from '../../src/entry/testing/fake-model-server.ts'
import { STOP_WORD } from '../../src/play/simulated-user/simulated-user-prompt.ts'
import { readAllAttempts } from '../../src/records/journal/read-run.ts'
import { writeHistory, type HistoryEntry } from '../../src/records/tally/trend.ts'
import type { RunSummary } from '../../src/records/tally/run-summary.ts'
import { startFakeAgentServer, type FakeAgentServer } from '../fakes/agent-server.ts'
import { FAKE_MODELS_AND_BOT_YML, makeProject, runInProcess, topicScenario } from './harness.ts'

/**
 * `convy-ci run AGENT -k 10 --attempts-by-history` (issue 39 item 2) through whole runs: the fake
 * model server judges, a real HTTP bot answers. The history.json beside the runs says: order failed no
 * decided attempt in 8 runs (stable: 7 attempts), refund failed in 3 of the last 5 (flaky: 15),
 * invoice is new (10, the plain -k).
 */
describe('run --attempts-by-history', () => {
  let models: FakeModelServer
  let bot: FakeAgentServer
  let dir: string
  /** Called on every judge call: a test interrupts the run from here. */
  let onJudge: (calls: number) => void = () => undefined
  let judgeCalls = 0
  before(async () => {
    models = await startFakeModelServer({
      user: async ({ dialogue }) => (dialogue.length === 0 ? 'hello, a question' : STOP_WORD),
      judge: judgeByRule(() => {
        onJudge(++judgeCalls)
        return true
      }),
    })
    bot = await startFakeAgentServer()
    dir = await makeProject({ 'convy.yml': FAKE_MODELS_AND_BOT_YML, 'scenarios/order.yml': topicScenario('order'), 'scenarios/refund.yml': topicScenario('refund'), 'scenarios/invoice.yml': topicScenario('invoice') })
  })
  beforeEach(async () => {
    judgeCalls = 0
    onJudge = () => undefined
    await writeHistory(historyFile(), { branch: 'main', entries: HISTORY }, new Date('2026-03-10T00:00:00Z'))
  })
  after(async () => {
    await models.close()
    await bot.close()
  })
  const env = () => ({ CONVY_BASE_URL: models.url, BOT_URL: bot.url })
  const historyFile = () => join(dir, 'results', 'support_bot', 'history.json')
  const runId = (text: string) => /run (support_bot\/\S+)/.exec(text)?.[1]
  const playedPer = async (runDir: string) => {
    const attempts = await readAllAttempts(runDir)
    const of = (id: string) => attempts.filter((a) => a.scenario === id).map((a) => a.attempt).sort((a, b) => a - b)
    return { order: of('order'), refund: of('refund'), invoice: of('invoice') }
  }
  const upTo = (n: number) => Array.from({ length: n }, (_, i) => i + 1)

  test('a stable scenario plays 7, a flaky one 15, a new one -k; run.json records each and the report says why', async () => {
    const result = await runInProcess(['run', 'support_bot', '-k', '10', '--attempts-by-history', '--parallel', '2'], { cwd: dir, env: env() })
    assert.equal(result.code, 0, result.stderr)
    assert.match(result.stderr, /support_bot: attempts from 8 runs of history: 1 stable at 7, 1 flaky at 15, 1 without enough history at 10/)
    const runDir = join(dir, 'results', runId(result.stdout + result.stderr)!)
    const manifest = JSON.parse(await readFile(join(runDir, 'run.json'), 'utf8'))
    assert.deepEqual(manifest.settings.attemptsByHistory, { rule: 'stable-flaky-v1', runs: 8, stableRuns: 8, stableAttempts: 7, flakyRuns: 2, window: 5, flakyFactor: 1.5, ceiling: 15 })
    assert.deepEqual(manifest.adaptive.scenarios, {
      invoice: { planned: 10, stopped: null, history: { reason: 'plain', runs: 0 } },
      order: { planned: 7, stopped: null, history: { reason: 'stable', runs: 8 } },
      refund: { planned: 15, stopped: null, history: { reason: 'flaky', runs: 3 } },
    })
    assert.deepEqual(await playedPer(runDir), { order: upTo(7), refund: upTo(15), invoice: upTo(10) })
    const report = await readFile(join(runDir, 'report.html'), 'utf8')
    assert.match(report, /32 of 32 \(3 scenarios, each planned from 8 runs of history; k 10 without enough\)/)
    assert.match(report, /stable-flaky-v1: invoice: 10 \(0 runs of history\); order: stable in 8 runs: 7; refund: flaky \(failed in 3 of 5 runs\): 15/)
    // As a baseline, its stable scenario's 7 attempts are what it planned: a run of the same agent compares with it without evidence missing.
    const pr = await runInProcess(['run', 'support_bot', '-k', '5', '--parallel', '2'], { cwd: dir, env: env() })
    const gated = await runInProcess(['compare', runId(result.stdout + result.stderr)!, runId(pr.stdout + pr.stderr)!, '--fail-on', 'worse'], { cwd: dir, env: {} })
    assert.equal(gated.code, 0, gated.stderr)
  })

  test('shards split the plan exactly: their union is the unsharded run, and merge makes it whole', async () => {
    const ids: string[] = []
    for (const shard of ['1/2', '2/2']) {
      const result = await runInProcess(['run', 'support_bot', '-k', '10', '--attempts-by-history', '--shard', shard, '--parallel', '2'], { cwd: dir, env: env() })
      assert.equal(result.code, 0, result.stderr)
      ids.push(runId(result.stdout + result.stderr)!)
    }
    const shares = await Promise.all(ids.map((id) => readAllAttempts(join(dir, 'results', id))))
    assert.deepEqual(shares.map((s) => s.length), [16, 16])
    const union = shares.flat().map((a) => `${a.scenario}#${a.attempt}`)
    assert.equal(new Set(union).size, 32)
    const merged = await runInProcess(['merge', ...ids.map((id) => id.slice(-4))], { cwd: dir, env: {} })
    assert.equal(merged.code, 0, merged.stderr)
    const mergedId = runId(merged.stdout + merged.stderr) ?? /(support_bot\/\S+)/.exec(merged.stdout + merged.stderr)![1]!
    const runDir = join(dir, 'results', mergedId)
    assert.deepEqual(await playedPer(runDir), { order: upTo(7), refund: upTo(15), invoice: upTo(10) })
    const manifest = JSON.parse(await readFile(join(runDir, 'run.json'), 'utf8'))
    assert.equal(manifest.adaptive.scenarios.order.planned, 7)
  })

  test('interrupted, resume plays exactly the planned attempts that are missing', async () => {
    const stop = new AbortController()
    onJudge = (calls) => {
      if (calls === 12) stop.abort()
    }
    const first = await runInProcess(['run', 'support_bot', '-k', '10', '--attempts-by-history', '--parallel', '1'], { cwd: dir, env: env(), signal: stop.signal })
    onJudge = () => undefined
    const id = runId(first.stdout + first.stderr) ?? /resume with: \S+ resume (\S+)/.exec(first.stderr)?.[1]
    assert.ok(id, first.stdout + first.stderr)
    const runDir = join(dir, 'results', id)
    const recordedBefore = (await readAllAttempts(runDir)).length
    assert.ok(recordedBefore >= 11 && recordedBefore < 32, `interrupted with ${recordedBefore} attempts`)
    assert.match(first.stderr, new RegExp(`interrupted: ${recordedBefore} of 32 attempts recorded`))
    // The history changes in between: resume plays the plan run.json recorded, not a new one.
    await writeFile(historyFile(), 'not a history')
    const resumed = await runInProcess(['resume', id], { cwd: dir, env: env() })
    assert.equal(resumed.code, 0, resumed.stderr)
    assert.match(resumed.stderr, new RegExp(`${32 - recordedBefore} of 32 attempts to play`))
    assert.deepEqual(await playedPer(runDir), { order: upTo(7), refund: upTo(15), invoice: upTo(10) })
  })

  test('a history file that cannot be read is a warning, not a crash: every scenario plays -k', async () => {
    await writeFile(historyFile(), '{"format": 1, "runs": "no"}')
    const result = await runInProcess(['run', 'support_bot', '-k', '6', '--attempts-by-history', '--parallel', '2'], { cwd: dir, env: env() })
    assert.equal(result.code, 0, result.stderr)
    assert.match(result.stderr, /warning: \S+history\.json is not a history of runs; support_bot plays -k attempts per scenario/)
    const runDir = join(dir, 'results', runId(result.stdout + result.stderr)!)
    const manifest = JSON.parse(await readFile(join(runDir, 'run.json'), 'utf8'))
    assert.equal(manifest.settings.attemptsByHistory, undefined)
    assert.equal(manifest.adaptive, undefined)
    assert.deepEqual(await playedPer(runDir), { order: upTo(6), refund: upTo(6), invoice: upTo(6) })
  })

  test('--attempts-by-history with --adaptive is refused before anything runs', async () => {
    const both = await runInProcess(['run', 'support_bot', '--attempts-by-history', '--adaptive', '--baseline', 'x'], { cwd: dir, env: env() })
    assert.equal(both.code, 2)
    assert.match(both.stderr, /--attempts-by-history plans a baseline run; --adaptive plays a pull request's run against one/)
  })
})

/** Eight runs of main, newest last: order never failed; refund failed in three of the last five; invoice is not there. */
const HISTORY: HistoryEntry[] = Array.from({ length: 8 }, (_, i) => {
  const refundFailed = [3, 5, 7].includes(i) ? 3 : 0
  const summary: RunSummary = {
    format: 1,
    run: `support_bot/2026-03-0${i + 1}T10-00-00_ab0${i}`,
    agent: 'support_bot',
    commit: null,
    branch: 'main',
    startedAt: `2026-03-0${i + 1}T10:00:00.000Z`,
    finishedAt: `2026-03-0${i + 1}T10:05:00.000Z`,
    state: 'finished',
    k: 10,
    scenarios: [
      { id: 'order', attempts: 10, passed: 9, judged: 9, errors: 1, noVerdicts: 0, medianAnswerSeconds: 1, costUsd: null },
      { id: 'refund', attempts: 10, passed: 10 - refundFailed, judged: 10, errors: 0, noVerdicts: 0, medianAnswerSeconds: 1, costUsd: null },
    ],
    medianAnswerSeconds: 1,
    costUsd: null,
  }
  return { workflowRun: 100 + i, summary }
})

