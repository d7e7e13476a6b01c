import assert from 'node:assert/strict'
import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { after, before, describe, test } from 'node:test'
import { judgeByRule, startFakeModelServer, type FakeModelServer } from '../../src/entry/testing/fake-model-server.ts'
import { STOP_WORD } from '../../src/play/simulated-user/simulated-user-prompt.ts'
import { readAllAttempts } from '../../src/records/journal/read-run.ts'
import { startFakeAgentServer, type FakeAgentServer } from '../fakes/agent-server.ts'
import { FAKE_MODELS_AND_BOT_YML, makeProject, runInProcess, topicScenario } from './harness.ts'

/**
 * `convy-ci run --adaptive --shard I/N` and `convy-ci merge` of adaptive shards (issue 39 item 3): the
 * fake model server judges, a real HTTP bot answers. Four scenarios; sorted by id, shard 1 of 2 owns
 * invoice and refund, shard 2 of 2 order and shipping. The baseline plays 10 attempts: invoice passes
 * every other time, the rest always. The pull request's agent breaks refund and plays invoice below
 * its baseline; with --parallel 1 the attempts and the rounds' decisions come in a fixed order.
 */
describe('run --adaptive --shard, and merge', () => {
  let models: FakeModelServer
  let bot: FakeAgentServer
  let passes: (topic: string, asked: number) => boolean = () => true
  const asked = new Map<string, number>()
  let onJudge: (calls: number) => void = () => undefined
  let judgeCalls = 0
  let dir: string
  let baseline: string
  before(async () => {
    models = await startFakeModelServer({
      user: async ({ dialogue }) => (dialogue.length === 0 ? 'hello, a question' : STOP_WORD),
      judge: judgeByRule((claim) => {
        const topic = /the (\w+)$/.exec(claim)![1]!
        const n = asked.get(topic) ?? 0
        asked.set(topic, n + 1)
        onJudge(++judgeCalls)
        return passes(topic, n)
      }),
    })
    bot = await startFakeAgentServer()
    const files: Record<string, string> = { 'convy.yml': FAKE_MODELS_AND_BOT_YML }
    for (const topic of ['order', 'refund', 'invoice', 'shipping']) files[`scenarios/${topic}.yml`] = topicScenario(topic)
    dir = await makeProject(files)
    passes = (topic, n) => topic !== 'invoice' || n % 2 === 0
    baseline = runId(await play(['run', 'support_bot', '-k', '10', '--parallel', '1']))
  })
  after(async () => {
    await models.close()
    await bot.close()
  })
  const env = () => ({ CONVY_BASE_URL: models.url, BOT_URL: bot.url })
  const play = async (argv: string[], signal?: AbortSignal) => {
    const result = await runInProcess(argv, { cwd: dir, env: env(), ...(signal ? { signal } : {}) })
    return result.stdout + result.stderr
  }
  const runId = (text: string) => {
    const id = /run (support_bot\/\S+)/.exec(text)?.[1] ?? /resume with: \S+ resume (\S+)/.exec(text)?.[1]
    assert.ok(id, text)
    return id
  }
  const folder = (id: string) => join(dir, 'results', ...id.split('/'))
  const manifestOf = async (id: string) => JSON.parse(await readFile(join(folder(id), 'run.json'), 'utf8'))
  /** The pull request's agent: refund never passes now; invoice passes one attempt in three. */
  const broken = () => {
    asked.clear()
    passes = (topic, n) => topic === 'order' || topic === 'shipping' || (topic === 'invoice' && n % 3 === 0)
  }
  const shard = (which: string, ...more: string[]) => ['run', 'support_bot', '--adaptive', '--baseline', baseline, '-k', '5', '--parallel', '1', '--shard', which, ...more]
  const SHARD_ONE = { invoice: { planned: 10, stopped: 'undecided' }, refund: { planned: 5, stopped: 'worse' } }
  const SHARD_TWO = { order: { planned: 5, stopped: 'decided' }, shipping: { planned: 5, stopped: 'decided' } }
  let one: string
  let two: string

  test('each shard plays and decides whole scenarios, its share, against the baseline; merge joins them exactly and the gate reads the whole', async () => {
    broken()
    one = runId(await play(shard('1/2')))
    broken()
    two = runId(await play(shard('2/2')))
    const [first, second] = [await manifestOf(one), await manifestOf(two)]
    // Every scenario is listed; each shard's rounds are its share's only, decided by its own looks.
    assert.equal(first.scenarios.length, 4)
    assert.deepEqual(first.adaptive.scenarios, SHARD_ONE)
    assert.deepEqual(second.adaptive.scenarios, SHARD_TWO)
    assert.equal(first.settings.adaptive.baseline, baseline)
    assert.deepEqual(second.settings.adaptive, first.settings.adaptive)
    const playedBy = async (id: string) => [...new Set((await readAllAttempts(folder(id))).map((a) => a.scenario))].sort()
    assert.deepEqual(await playedBy(one), ['invoice', 'refund'])
    assert.deepEqual(await playedBy(two), ['order', 'shipping'])
    assert.equal((await readAllAttempts(folder(one))).length, 15)
    const report = await readFile(join(folder(one), 'report.html'), 'utf8')
    assert.match(report, /15 of 15 \(2 of 4 scenarios \(shard 1 of 2&#39;s share\) × k 5, then up to 10 where the comparison with support_bot\/\S+ was undecided\)/)

    const merged = await runInProcess(['merge', two, one], { cwd: dir, env: {} })
    assert.equal(merged.code, 0, merged.stderr)
    const id = /^merged 2 shards into run (\S+)$/m.exec(merged.stdout)?.[1]
    assert.ok(id, merged.stdout)
    const manifest = await manifestOf(id)
    assert.equal(manifest.settings.shard, null)
    assert.equal(manifest.state, 'finished')
    assert.deepEqual(manifest.settings.adaptive, first.settings.adaptive)
    assert.deepEqual(manifest.adaptive.scenarios, { ...SHARD_ONE, ...SHARD_TWO })
    assert.deepEqual(Object.keys(manifest.adaptive.scenarios), ['invoice', 'order', 'refund', 'shipping'])
    const attempts = await readAllAttempts(folder(id))
    const shardAttempts = [...(await readAllAttempts(folder(one))), ...(await readAllAttempts(folder(two)))]
    const names = (list: { scenario: string; attempt: number }[]) => list.map((a) => `${a.scenario}#${a.attempt}`)
    // Exactly the union, in the unsharded run's order: by scenario, then attempt.
    assert.deepEqual(names(attempts), names([...shardAttempts].sort((x, y) => (x.scenario < y.scenario ? -1 : x.scenario > y.scenario ? 1 : x.attempt - y.attempt))))
    assert.match(await readFile(join(folder(id), 'report.html'), 'utf8'), /25 of 25 \(4 scenarios × k 5, then up to 10/)

    const gated = await runInProcess(['compare', baseline, id, '--fail-on', 'worse'], { cwd: dir, env: {} })
    assert.equal(gated.code, 1, gated.stderr)
    assert.match(gated.stderr, /Worse than the baseline: refund\b/)
    assert.doesNotMatch(gated.stderr, /attempts not played|Evidence missing/)
    const comment = await runInProcess(['compare', baseline, id, '--markdown', '--fail-on', 'never'], { cwd: dir, env: {} })
    assert.match(comment.stdout, /Adaptive attempts: 25 of 40 played \(spend-t3-pooled, 5 then up to 10\)/)
    assert.match(comment.stdout, /order: decided after 5/)
    assert.match(comment.stdout, /refund: Worse after 5/)
  })

  test('merge refuses adaptive shards that disagree on the ceiling or the baseline, a fixed shard, and shares that overlap or are not theirs', async () => {
    assert.ok(one && two, 'the first test made the shards')
    const refused = async (ids: string[], pattern: RegExp) => {
      const result = await runInProcess(['merge', ...ids], { cwd: dir, env: {} })
      assert.equal(result.code, 2, result.stdout + result.stderr)
      assert.match(result.stderr, pattern)
    }
    broken()
    const lowerCeiling = runId(await play(shard('2/2', '--max-attempts', '6')))
    await refused([one, lowerCeiling], /are not shards of one adaptive run: they disagree on the ceiling \(--max-attempts 10, 6\)/)
    asked.clear()
    passes = () => true
    const otherBaseline = runId(await play(['run', 'support_bot', '-k', '3', '--parallel', '1']))
    broken()
    const againstOther = runId(await play(['run', 'support_bot', '--adaptive', '--baseline', otherBaseline, '-k', '5', '--parallel', '1', '--shard', '2/2']))
    await refused([one, againstOther], new RegExp(`disagree on the baseline \\(${baseline.replace('/', '\\/')}, ${otherBaseline.replace('/', '\\/')}\\)`))
    const fixed = runId(await play(['run', 'support_bot', '-k', '5', '--parallel', '1', '--shard', '2/2']))
    await refused([one, fixed], /played adaptive rounds \(--adaptive\) and \S+ a fixed -k: they are not shards of one run/)

    // A shard's run.json that claims a scenario of the other's share, or drops one of its own.
    const runJson = join(folder(two), 'run.json')
    const original = await readFile(runJson, 'utf8')
    try {
      const claims = JSON.parse(original)
      claims.adaptive.scenarios.refund = { planned: 5, stopped: 'worse' }
      await writeFile(runJson, JSON.stringify(claims, null, 2))
      await refused([one, two], /shard 1 of 2 \(\S+\) and shard 2 of 2 \(\S+\) both played scenario refund: adaptive shards own whole scenarios/)
      const drops = JSON.parse(original)
      delete drops.adaptive.scenarios.shipping
      await writeFile(runJson, JSON.stringify(drops, null, 2))
      await refused([one, two], /shard 2 of 2 \(\S+\) played order, not its share of the run's scenarios \(order, shipping\)/)
    } finally {
      await writeFile(runJson, original)
    }
  })

  test('a shard beyond the scenarios owns none: it plays nothing and finishes', async () => {
    const result = await runInProcess(shard('5/5'), { cwd: dir, env: env() })
    assert.equal(result.code, 0, result.stderr)
    const id = runId(result.stdout + result.stderr)
    const manifest = await manifestOf(id)
    assert.equal(manifest.state, 'finished')
    assert.deepEqual(manifest.adaptive.scenarios, {})
    assert.equal((await readAllAttempts(folder(id))).length, 0)
  })

  test('an adaptive shard interrupted in the middle of a round resumes its own rounds, and merges', async () => {
    assert.ok(two, 'the first test made shard 2 of 2')
    broken()
    const stop = new AbortController()
    // Shard 1 plays invoice 1–5, refund 1–5, then invoice 6–10: the 8th judge call is refund's third attempt.
    judgeCalls = 0
    onJudge = (calls) => {
      if (calls === 8) stop.abort()
    }
    const id = runId(await play(shard('1/2'), stop.signal))
    onJudge = () => undefined
    const interrupted = await manifestOf(id)
    assert.equal(interrupted.state, 'interrupted')
    assert.deepEqual(interrupted.adaptive.scenarios.invoice, { planned: 10, stopped: null })
    assert.deepEqual(Object.keys(interrupted.adaptive.scenarios).sort(), ['invoice', 'refund'])
    const early = await runInProcess(['merge', id, two], { cwd: dir, env: {} })
    assert.equal(early.code, 2)
    assert.match(early.stderr, /shard 1 of 2 \(\S+\) is interrupted; resume it first/)

    const resumed = await runInProcess(['resume', id], { cwd: dir, env: env() })
    assert.equal(resumed.code, 0, resumed.stderr)
    const manifest = await manifestOf(id)
    assert.equal(manifest.state, 'finished')
    assert.deepEqual(manifest.adaptive.scenarios, SHARD_ONE)
    const attempts = await readAllAttempts(folder(id))
    assert.deepEqual([...new Set(attempts.map((a) => a.scenario))].sort(), ['invoice', 'refund'])
    assert.equal(attempts.length, 15)

    const merged = await runInProcess(['merge', id, two], { cwd: dir, env: {} })
    assert.equal(merged.code, 0, merged.stderr)
  })
})
