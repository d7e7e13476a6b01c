import assert from 'node:assert/strict'
import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { after, before, describe, test } from 'node:test'
import { judgeByRule, startFakeModelServer, type FakeModelServer } from '../../src/entry/testing/fake-model-server.ts'
import { STOP_WORD } from '../../src/play/simulated-user/simulated-user-prompt.ts'
import { startFakeAgentServer, type FakeAgentServer } from '../fakes/agent-server.ts'
import { FAKE_MODELS_AND_BOT_YML, makeProject, runInProcess, topicScenario } from './harness.ts'

/**
 * `compare --fail-on-slower PCT` through whole runs: the same bot, then the same bot taking a second
 * more per answer. Every claim holds in both runs; only the speed moved, and it gates.
 */
describe('compare --fail-on-slower', () => {
  let models: FakeModelServer
  let bot: FakeAgentServer
  before(async () => {
    models = await startFakeModelServer({ user: ({ dialogue }) => (dialogue.length === 0 ? 'hello, a question' : STOP_WORD), judge: judgeByRule(() => true) })
    bot = await startFakeAgentServer()
  })
  after(async () => {
    await models.close()
    await bot.close()
  })

  test('a bot answering many times slower fails the gate past the percentage, says why, and the comment has a Speed section', async () => {
    const dir = await makeProject({ 'convy.yml': FAKE_MODELS_AND_BOT_YML, 'scenarios/order.yml': topicScenario('order'), 'scenarios/refund.yml': topicScenario('refund') })
    const env = { CONVY_BASE_URL: models.url, BOT_URL: bot.url }
    const play = async () => {
      const result = await runInProcess(['run', 'support_bot', '-k', '5', '--parallel', '2'], { cwd: dir, env })
      return /run (support_bot\/\S+)/.exec(result.stdout + result.stderr)![1]!
    }
    bot.latencyMs = 0
    const fast = await play()
    bot.latencyMs = 1000
    const slow = await play()

    const gated = await runInProcess(['compare', fast, slow, '--fail-on', 'worse', '--fail-on-slower', '50', '--markdown'], { cwd: dir, env: {} })
    assert.equal(gated.code, 1, gated.stderr)
    assert.equal(gated.stderr.match(/^gate /gm)?.length, 1, 'one gate, one decision: the pass rates within noise, the speed past its limit')
    assert.match(gated.stderr, /gate \(fail-on: worse, fail-on-slower 50%\): fail: Answers are \d+\.\d\d × slower overall \(p = .+\), past the 50% allowed \(fail-on-slower\)\./)
    assert.match(gated.stdout, /\*\*Speed and cost\*\*\n\n- Overall: answers \d+\.\d × slower overall \(p = [^)]+, 95% CI/)
    // The tile says what the section and the gate say: slower, from the same test.
    assert.match(gated.stdout, /^\| Answer time \| [^|]+ median per attempt · [^|]+ \| [^|]+ median per attempt · [^|]+ \| 🟥 \+/m)
    // A scenario is told alone only when all 5 slow attempts are slower than all 5 fast ones (p = 1/252):
    // a real difference in latency is what is tested, so it is made large against noise: a fast answer
    // would have to stall a whole second (it takes milliseconds) to overlap the slow ones. The test still
    // asks only for the scenarios told to be these, with that p, and for at least one. The second costs
    // waiting, not a core: some 5 s of this file's time while the other files run.
    const told = [...gated.stdout.matchAll(/^- (\w+): answers \d+\.\d × slower, p = 0\.0040 \(median/gm)].map((m) => m[1])
    assert.ok(told.length >= 1 && told.every((id) => id === 'order' || id === 'refund'), gated.stdout)

    // The compare page says what the gate said, when asked to gate.
    const page = async () => {
      const pages = (await readdir(join(dir, 'results', 'compare'))).filter((f) => f.endsWith('.html'))
      assert.equal(pages.length, 1, pages.join(', '))
      return readFile(join(dir, 'results', 'compare', pages[0]!), 'utf8')
    }
    assert.match(await page(), /<p class="card gate g-fail" data-gate="fail"><b>Gate \(fail-on: worse, fail-on-slower 50%\): fail\.<\/b> Answers are \d+\.\d\d × slower overall/)

    const lenient = await runInProcess(['compare', fast, slow, '--fail-on-slower', '100000'], { cwd: dir, env: {} })
    assert.equal(lenient.code, 0, lenient.stderr)
    assert.match(await page(), /<b>Gate \(fail-on: worse, fail-on-slower 100000%\): pass\.<\/b>/)
    // A second more per answer is under a minimum of 5 s per answer: never told slower, so never gated.
    const minimum = await runInProcess(['compare', fast, slow, '--fail-on-slower', '50', '--min-speed-change', '5000', '--markdown'], { cwd: dir, env: {} })
    assert.equal(minimum.code, 0, minimum.stderr)
    assert.doesNotMatch(minimum.stdout, /× slower/)
    const plain = await runInProcess(['compare', fast, slow], { cwd: dir, env: {} })
    assert.equal(plain.code, 0, plain.stderr)
    assert.doesNotMatch(await page(), /data-gate=/, 'not asked to gate: no gate line on the page')
    const wrong = await runInProcess(['compare', fast, slow, '--fail-on-slower', 'fast'], { cwd: dir, env: {} })
    assert.equal(wrong.code, 2)
    assert.match(wrong.stderr, /--fail-on-slower fast: expected a percentage, 0 or more/)
  })
})
