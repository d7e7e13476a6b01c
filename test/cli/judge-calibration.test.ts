import assert from 'node:assert/strict'
import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { after, before, describe, test } from 'node:test'
import { judgeByRule, startFakeModelServer, type FakeModelServer } from '../../src/entry/testing/fake-model-server.ts'
import { STOP_WORD } from '../../src/play/simulated-user/simulated-user-prompt.ts'
import { startFakeAgentServer, type FakeAgentServer } from '../fakes/agent-server.ts'
import { FAKE_MODELS_AND_BOT_YML, makeProject, runInProcess, topicScenario } from './harness.ts'

/**
 * calibration.json where verdicts are used: the run's summary and report cite it while the judge is
 * the one it measured and flag it stale once the judge changed; the compare page and the comment
 * say the same; with judge.min_kappa, a comparison whose judge is unchecked does not pass the gate.
 */
describe('the judge calibration in runs, reports, comparisons and the gate', () => {
  let models: FakeModelServer
  let bot: FakeAgentServer
  let dir: string
  let first: string
  before(async () => {
    models = await startFakeModelServer({
      user: ({ dialogue }) => (dialogue.length === 0 ? 'hello, a question' : STOP_WORD),
      judge: judgeByRule(() => true),
    })
    bot = await startFakeAgentServer()
    dir = await makeProject({ 'convy.yml': FAKE_MODELS_AND_BOT_YML, 'scenarios/orders.yml': topicScenario('orders') })
    first = await run()
    // The judge held all 5; the person says 3 hold and 2 do not: agreement 3/5, pₒ = 3/5 = pₑ, so κ 0.
    const labels = [1, 2, 3, 4, 5].map((attempt) => JSON.stringify({ run: first, scenario: 'orders', attempt, claim: 1, holds: attempt <= 3 }))
    await writeFile(join(dir, 'labels.jsonl'), `${labels.join('\n')}\n`)
    const checked = await cli('judge-check', 'labels.jsonl')
    assert.equal(checked.code, 0, checked.stderr)
  })
  after(async () => {
    await models.close()
    await bot.close()
  })

  const cli = (...argv: string[]) => runInProcess(argv, { cwd: dir, env: { CONVY_BASE_URL: models.url, BOT_URL: bot.url } })
  async function run(): Promise<string> {
    const played = await cli('run', 'support_bot', '-k', '5')
    assert.equal(played.code, 0, played.stdout + played.stderr)
    return /run (support_bot\/\S+)/.exec(played.stdout)![1]!
  }
  const report = (id: string) => readFile(join(dir, 'results', id, 'report.html'), 'utf8')

  test('a run judged by the checked judge cites its figures in the summary and the report', async () => {
    const played = await cli('run', 'support_bot', '-k', '2')
    assert.match(played.stdout, /Judge checked against a person's labels: judge agreement 60%, κ 0\.00 on 5 labels/)
    const id = /run (support_bot\/\S+)/.exec(played.stdout)![1]!
    assert.match(await report(id), /data-calibration="matches">Judge checked against a person&#39;s labels: judge agreement 60%, κ 0\.00 on 5 labels/)
  })

  test('once the judge model changes, the calibration is stale in the summary, the report, the compare page and the comment', async () => {
    const yml = await readFile(join(dir, 'convy.yml'), 'utf8')
    await writeFile(join(dir, 'convy.yml'), yml.replace('judge: judge-model', 'judge: judge-model-2'))
    try {
      const played = await cli('run', 'support_bot', '-k', '5')
      assert.match(played.stdout, /Judge calibration is stale: the judge model is "judge-model-2", the labels checked "judge-model"/)
      const id = /run (support_bot\/\S+)/.exec(played.stdout)![1]!
      assert.match(await report(id), /class="banner" data-calibration="stale">Judge calibration is stale/)
      const compared = await cli('compare', first, id, '--markdown')
      assert.match(compared.stdout, /> ⚠️ Judge calibration is stale: the judge model is "judge-model-2"/)
      const page = await readFile(join(dir, 'results', 'compare', /results\/compare\/(\S+\.html)/.exec((await cli('compare', first, id)).stdout)![1]!), 'utf8')
      assert.match(page, /data-calibration="stale"/)
    } finally {
      await writeFile(join(dir, 'convy.yml'), yml)
    }
  })

  test('with judge.min_kappa above the checked κ, a comparison that would pass is inconclusive, evidence missing; at or below the lower end of its interval, it passes', async () => {
    const second = await run()
    const yml = await readFile(join(dir, 'convy.yml'), 'utf8')
    try {
      await writeFile(join(dir, 'convy.yml'), `${yml}judge:\n  min_kappa: 0.7\n`)
      const gated = await cli('compare', first, second, '--fail-on', 'worse')
      assert.equal(gated.code, 3, 'an unchecked judge is evidence missing: it fails by default, exit 3')
      assert.match(gated.stderr, /gate \(fail-on: worse\): inconclusive \(evidence missing\): The verdict rests on an unchecked judge: its κ against the labels is 0\.00 \(95% CI -?\d\.\d\d–\d\.\d\d\): the lower end is below judge\.min_kappa 0\.7\./)
      const optedOut = await cli('compare', first, second, '--fail-on', 'worse', '--no-fail-on-inconclusive')
      assert.equal(optedOut.code, 0, 'evidence missing passes only when asked to')

      // Held against the lower end of κ's 95% interval (κ 0 here): only a minimum at or below it passes.
      await writeFile(join(dir, 'convy.yml'), `${yml}judge:\n  min_kappa: -1\n`)
      const passing = await cli('compare', first, second, '--fail-on', 'worse')
      assert.match(passing.stderr, /gate \(fail-on: worse\): pass: /)

      await writeFile(join(dir, 'convy.yml'), `${yml}judge:\n  min_kappa: 0.5\n  labels: elsewhere/labels.jsonl\n`)
      const missing = await cli('compare', first, second, '--fail-on', 'worse')
      assert.match(missing.stderr, /inconclusive \(evidence missing\): The verdict rests on an unchecked judge: no calibration of this judge against labels/)

      await writeFile(join(dir, 'convy.yml'), `${yml}judge:\n  min_kappa: 2\n`)
      const wrong = await cli('compare', first, second, '--fail-on', 'worse')
      assert.equal(wrong.code, 2)
      assert.match(wrong.stderr, /convy\.yml:\d+: judge\.min_kappa: must be at most 1/)
    } finally {
      await writeFile(join(dir, 'convy.yml'), yml)
    }
  })
})
