import assert from 'node:assert/strict'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { after, before, describe, test } from 'node:test'
import { judgeByRule, startFakeModelServer, type FakeModelServer } from '../../src/entry/testing/fake-model-server.ts'
import { STOP_WORD } from '../../src/play/simulated-user/simulated-user-prompt.ts'
import { readAllAttempts } from '../../src/records/journal/read-run.ts'
import { startFakeAgentServer, type FakeAgentServer } from '../fakes/agent-server.ts'
import { FAKE_MODELS_AND_BOT_YML, makeProject, runInProcess, topicScenario } from './harness.ts'

/**
 * `convy-ci run --adaptive` through whole runs (issue 39): the fake model server judges, a real HTTP
 * bot answers. The baseline plays 10 attempts of three scenarios: order always passes, refund always
 * passes, invoice every other time. The pull request's run breaks refund and plays invoice below its
 * baseline; with --parallel 1 the attempts and the rounds' decisions come in a fixed order.
 */
describe('run --adaptive', () => {
  let models: FakeModelServer
  let bot: FakeAgentServer
  /** Whether the judge passes the claim about `topic`, given how many times it was asked about it before. */
  let passes: (topic: string, asked: number) => boolean = () => true
  const asked = new Map<string, number>()
  /** Called on every judge call: a test interrupts the run from here. */
  let onJudge: (calls: number) => void = () => undefined
  /** Awaited before the simulated user's first line of each attempt: a test holds an attempt here. */
  let onOpening: (topic: string) => Promise<void> = async () => undefined
  let judgeCalls = 0
  let dir: string
  let baseline: string
  before(async () => {
    models = await startFakeModelServer({
      user: async ({ instructions, dialogue }) => {
        if (dialogue.length === 0) await onOpening(/your (\w+)/.exec(instructions)![1]!)
        return dialogue.length === 0 ? 'hello, a question' : STOP_WORD
      },
      judge: judgeByRule((claim) => {
        const topic = /the (\w+)$/.exec(claim)![1]!
        const n = asked.get(topic) ?? 0
        asked.set(topic, n + 1)
        onJudge(++judgeCalls)
        return passes(topic, n)
      }),
    })
    bot = await startFakeAgentServer()
    dir = await makeProject({ 'convy.yml': FAKE_MODELS_AND_BOT_YML, 'scenarios/order.yml': topicScenario('order'), 'scenarios/refund.yml': topicScenario('refund'), 'scenarios/invoice.yml': topicScenario('invoice') })
    passes = (topic, n) => topic !== 'invoice' || n % 2 === 0
    const played = await runInProcess(['run', 'support_bot', '-k', '10', '--parallel', '1'], { cwd: dir, env: env() })
    baseline = /run (support_bot\/\S+)/.exec(played.stdout + played.stderr)![1]!
  })
  after(async () => {
    await models.close()
    await bot.close()
  })
  const env = () => ({ CONVY_BASE_URL: models.url, BOT_URL: bot.url })
  /** The pull request's agent: refund never passes now; invoice passes one attempt in three. */
  const broken = () => {
    asked.clear()
    passes = (topic, n) => topic === 'order' || (topic === 'invoice' && n % 3 === 0)
  }
  const runId = (text: string) => /run (support_bot\/\S+)/.exec(text)?.[1]

  test('the broken scenario is Worse in the first round, the stable one stops there, the flaky one plays to the ceiling; the gate and the comment say so', async () => {
    broken()
    const result = await runInProcess(['run', 'support_bot', '--adaptive', '--baseline', baseline, '-k', '5', '--max-attempts', '10', '--parallel', '1'], { cwd: dir, env: env() })
    const id = runId(result.stdout + result.stderr)
    assert.ok(id, result.stdout + result.stderr)
    const runDir = join(dir, 'results', id)
    const manifest = JSON.parse(await readFile(join(runDir, 'run.json'), 'utf8'))
    assert.equal(manifest.settings.adaptive.rule, 'spend-t3-pooled')
    assert.equal(manifest.settings.adaptive.maxAttempts, 10)
    assert.equal(manifest.settings.adaptive.baseline, baseline)
    assert.deepEqual(manifest.adaptive.scenarios, {
      invoice: { planned: 10, stopped: 'undecided' },
      order: { planned: 5, stopped: 'decided' },
      refund: { planned: 5, stopped: 'worse' },
    })
    const report = await readFile(join(runDir, 'report.html'), 'utf8')
    assert.match(report, /20 of 20 \(3 scenarios × k 5, then up to 10 where the comparison with support_bot\/\S+ was undecided\)/)
    assert.match(report, /spend-t3-pooled: invoice: undecided at 10; order: decided after 5; refund: Worse after 5/)
    const attempts = await readAllAttempts(runDir)
    const played = (id: string) => attempts.filter((a) => a.scenario === id).length
    assert.deepEqual([played('order'), played('refund'), played('invoice')], [5, 5, 10])

    // The gate: Worse, refund first; order's five unplayed attempts are not missing evidence.
    const gated = await runInProcess(['compare', baseline, id, '--fail-on', 'worse'], { cwd: dir, env: {} })
    assert.equal(gated.code, 1, gated.stderr)
    assert.match(gated.stderr, /Worse than the baseline: refund\b/)
    assert.doesNotMatch(gated.stderr, /attempts not played|Evidence missing/)
    const comment = await runInProcess(['compare', baseline, id, '--markdown', '--fail-on', 'never'], { cwd: dir, env: {} })
    assert.match(comment.stdout, /Adaptive attempts: 20 of 30 played \(spend-t3-pooled, 5 then up to 10\)/)
    assert.match(comment.stdout, /invoice: undecided at 10/)
    assert.match(comment.stdout, /order: decided after 5/)
    assert.match(comment.stdout, /refund: Worse after 5/)
    const page = await runInProcess(['compare', baseline, id, '--fail-on', 'never'], { cwd: dir, env: {} })
    assert.equal(page.code, 0, page.stderr)
    const pagePath = /(\S+\.html)/.exec(page.stdout)?.[1]
    assert.ok(pagePath, page.stdout)
    const html = await readFile(join(dir, pagePath), 'utf8')
    assert.match(html, /<h2>Adaptive attempts<\/h2><div class="card"><p>20 of 30 attempts played \(spend-t3-pooled: 5 first, then up to 10 where the comparison was undecided\)/)
    assert.match(html, /<li><b>invoice<\/b>: undecided at 10<\/li>/)
  })

  test('an unchanged agent that stops after its first round passes the gate: what the rule chose not to play is not missing', async () => {
    asked.clear()
    passes = (topic, n) => topic !== 'invoice' || n % 2 === 0
    const result = await runInProcess(['run', 'support_bot', '--adaptive', '--baseline', baseline, '-k', '5', '--parallel', '1'], { cwd: dir, env: env() })
    const id = runId(result.stdout + result.stderr)!
    const manifest = JSON.parse(await readFile(join(dir, 'results', id, 'run.json'), 'utf8'))
    assert.equal(manifest.adaptive.scenarios.order.planned, 5)
    assert.equal(manifest.adaptive.scenarios.refund.planned, 5)
    assert.equal(manifest.adaptive.scenarios.invoice.planned, 10)
    const gated = await runInProcess(['compare', baseline, id, '--fail-on', 'worse'], { cwd: dir, env: {} })
    assert.equal(gated.code, 0, gated.stderr)
  })

  test('interrupted in the middle of a round, resume plays what the round lacks and goes on with the same rounds', async () => {
    broken()
    const stop = new AbortController()
    // With --parallel 1 the attempts go invoice 1–5, order 1–5, refund 1–5, then invoice 6–10 (its
    // second round, given when its first ended): the 13th judge call is refund's third attempt, in the
    // middle of its first round, with invoice's second round given and not yet played.
    judgeCalls = 0
    onJudge = (calls) => {
      if (calls === 13) stop.abort()
    }
    const first = await runInProcess(['run', 'support_bot', '--adaptive', '--baseline', baseline, '-k', '5', '--parallel', '1'], { cwd: dir, env: env(), signal: stop.signal })
    onJudge = () => undefined
    const id = runId(first.stdout + first.stderr) ?? /resume with: \S+ resume (\S+)/.exec(first.stderr)?.[1]
    assert.ok(id, first.stdout + first.stderr)
    const runDir = join(dir, 'results', id)
    const before = JSON.parse(await readFile(join(runDir, 'run.json'), 'utf8'))
    assert.equal(before.state, 'interrupted')
    assert.deepEqual(before.adaptive.scenarios.invoice, { planned: 10, stopped: null })
    const recordedBefore = (await readAllAttempts(runDir)).length
    assert.equal(before.adaptive.scenarios.refund.stopped, null)
    assert.ok(recordedBefore < 15, `interrupted with ${recordedBefore} attempts`)
    // Out of what the rounds had given by then: invoice's second round included.
    assert.match(first.stderr, new RegExp(`interrupted: ${recordedBefore} of 20 attempts recorded`))

    const resumed = await runInProcess(['resume', id], { cwd: dir, env: env() })
    assert.match(resumed.stderr, new RegExp(`resuming ${id.replace(/[/]/g, '\\/')}: ${20 - recordedBefore} of 20 attempts to play`))
    const manifest = JSON.parse(await readFile(join(runDir, 'run.json'), 'utf8'))
    assert.equal(manifest.state, 'finished')
    assert.deepEqual(manifest.adaptive.scenarios, {
      invoice: { planned: 10, stopped: 'undecided' },
      order: { planned: 5, stopped: 'decided' },
      refund: { planned: 5, stopped: 'worse' },
    })
    const attempts = await readAllAttempts(runDir)
    assert.equal(attempts.length, 20)
    assert.deepEqual(attempts.filter((a) => a.scenario === 'invoice').map((a) => a.attempt).sort((a, b) => a - b), [1, 2, 3, 4, 5, 6, 7, 8, 9, 10])
  })

  test("a scenario's next round starts when its own round ends, while another scenario's first round is still playing", async () => {
    asked.clear()
    passes = (topic, n) => topic !== 'invoice' || n % 2 === 0
    // refund's fifth attempt (the last of its first round) is held until invoice's sixth attempt (its
    // second round) has started. A runner that waited for every scenario's round would never start it;
    // the fallback release only keeps such a runner from hanging the suite, and the order below fails.
    const openings = new Map<string, number>()
    let release!: () => void
    const held = new Promise<void>((done) => (release = done))
    let releasedBy: string | null = null
    const releaseBy = (who: string) => {
      releasedBy ??= who
      release()
    }
    const fallback = setTimeout(() => releaseBy('the fallback'), 60_000)
    onOpening = async (topic) => {
      const n = (openings.get(topic) ?? 0) + 1
      openings.set(topic, n)
      if (topic === 'invoice' && n === 6) releaseBy("invoice's sixth attempt")
      if (topic === 'refund' && n === 5) await held
    }
    try {
      const result = await runInProcess(['run', 'support_bot', '--adaptive', '--baseline', baseline, '-k', '5', '--parallel', '3'], { cwd: dir, env: env() })
      const id = runId(result.stdout + result.stderr)!
      const lines = (await readFile(join(dir, 'results', id, 'attempts.jsonl'), 'utf8')).trim().split('\n').map((line) => JSON.parse(line) as { scenario: string; attempt: number })
      const at = (scenario: string, attempt: number) => lines.findIndex((a) => a.scenario === scenario && a.attempt === attempt)
      assert.equal(releasedBy, "invoice's sixth attempt", 'invoice\'s second round waited for refund\'s first')
      assert.ok(at('invoice', 6) >= 0 && at('refund', 5) >= 0)
      assert.equal(lines.length, 20)
    } finally {
      clearTimeout(fallback)
      onOpening = async () => undefined
    }
  })

  test('--adaptive without --baseline, or --max-attempts under -k, is refused before anything runs', async () => {
    const missing = await runInProcess(['run', 'support_bot', '--adaptive'], { cwd: dir, env: env() })
    assert.equal(missing.code, 2)
    assert.match(missing.stderr, /--adaptive: name the run to compare with, --baseline <run>/)
    const low = await runInProcess(['run', 'support_bot', '--adaptive', '--baseline', baseline, '-k', '5', '--max-attempts', '4'], { cwd: dir, env: env() })
    assert.equal(low.code, 2)
    assert.match(low.stderr, /--max-attempts 4: must be at least -k \(5\)/)
    const stray = await runInProcess(['run', 'support_bot', '--max-attempts', '4'], { cwd: dir, env: env() })
    assert.equal(stray.code, 2)
    assert.match(stray.stderr, /--max-attempts is for --adaptive/)
  })
})
