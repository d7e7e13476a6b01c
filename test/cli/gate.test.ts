import assert from 'node:assert/strict'
import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { after, before, describe, test } from 'node:test'
import { fakeReply, judgeByRule, startFakeModelServer, type FakeModelServer } from '../../src/entry/testing/fake-model-server.ts'
import { STOP_WORD } from '../../src/play/simulated-user/simulated-user-prompt.ts'
import { readAllAttempts } from '../../src/records/journal/read-run.ts'
import { startFakeAgentServer, type FakeAgentServer } from '../fakes/agent-server.ts'
import { FAKE_MODELS_AND_BOT_YML, makeProject, runInProcess, topicScenario } from './harness.ts'

const CONVY_YML = FAKE_MODELS_AND_BOT_YML
const scenarioFile = topicScenario

/**
 * The gate through whole runs: convy-ci's models are a fake OpenAI-compatible server, the agent a
 * fake HTTP bot; the runs are played once and shared (a baseline, a run whose agent errors), a test
 * plays what only it needs, and each gates them with `convy-ci compare --fail-on`.
 */
describe('the gate decides on the statistics alone', () => {
  let models: FakeModelServer
  let bot: FakeAgentServer
  /** What the simulated user writes first; a test switches it to make the agent fail. */
  let opening = (topic: string) => `hello, about my ${topic}`
  /** Topics whose judge calls are refused: those attempts get no verdict. */
  let refused: string[] = []
  /** One project holding the shared runs: the baseline, and the run with the broken agent. */
  let dir: string
  let baseline: string
  let broken: string
  before(async () => {
    models = await startFakeModelServer({
      user: ({ instructions, dialogue }) => (dialogue.length === 0 ? opening(/your (\w+)/.exec(instructions)![1]!) : STOP_WORD),
      handler: ({ judge }) => (judge && refused.some((topic) => judge.claims[0]!.includes(topic)) ? fakeReply.refusal('I will not judge this.') : undefined),
      judge: judgeByRule(() => true),
    })
    bot = await startFakeAgentServer()
    // The runs the tests share, played once: a baseline every test compares against, and a run whose
    // agent now answers `order` with HTTP 500 (tests 2 and 3).
    dir = await project()
    baseline = await play(dir)
    opening = (topic) => (topic === 'order' ? `[fail:500] about my ${topic}` : `hello, about my ${topic}`)
    broken = await play(dir)
    opening = (topic) => `hello, about my ${topic}`
  })
  after(async () => {
    await models.close()
    await bot.close()
  })

  async function project() {
    return makeProject({ 'convy.yml': CONVY_YML, 'scenarios/order.yml': scenarioFile('order'), 'scenarios/refund.yml': scenarioFile('refund'), 'scenarios/invoice.yml': scenarioFile('invoice') })
  }
  const env = () => ({ CONVY_BASE_URL: models.url, BOT_URL: bot.url })
  async function play(dir: string): Promise<string> {
    const result = await runInProcess(['run', 'support_bot', '-k', '5', '--parallel', '4'], { cwd: dir, env: env() })
    const id = /run (support_bot\/\S+)/.exec(result.stdout + result.stderr)?.[1]
    assert.ok(id, result.stdout + result.stderr)
    return id
  }
  const compare = (dir: string, ...args: string[]) => runInProcess(['compare', ...args], { cwd: dir, env: {} })

  test('a scenario the judge refuses in the PR run is counted against it: evidence missing, exit 3 (0 with --no-fail-on-inconclusive)', async () => {
    refused = ['refund', 'invoice']
    const judgeless = await play(dir)
    refused = []
    const attempts = await readAllAttempts(join(dir, 'results', judgeless))
    assert.equal(attempts.filter((a) => a.verdict === 'no_verdict').length, 10, "the judge refused two scenarios' attempts")

    // Two of three scenarios without any verdict are also "a run with two thirds undecided" (verdict/coverage.ts
    // reads a blind scenario against the run's own rate): what the gate says is that rate and each scenario's 5/5 → 0/5.
    const gated = await compare(dir, baseline, judgeless, '--fail-on', 'worse')
    assert.equal(gated.code, 3, gated.stderr)
    assert.match(gated.stderr, /gate \(fail-on: worse\): inconclusive \(evidence missing\): Evidence missing: counted as failed, what this run lacks makes it Worse than the baseline \(one-sided p = [\d.e-]+\): invoice 5\/5 → 0\/5 \(attempts without a verdict\); refund 5\/5 → 0\/5 \(attempts without a verdict\); 10 of 15 attempts after have no verdict/)
    assert.equal((await compare(dir, baseline, judgeless, '--fail-on', 'worse', '--no-fail-on-inconclusive')).code, 0)
    const markdown = await compare(dir, baseline, judgeless, '--markdown', '--fail-on', 'never')
    const lines = markdown.stdout.split('\n')
    assert.match(lines[2]!, /^### 🟧 Inconclusive, evidence missing · Worse counting what this run lacks · support\\_bot$/)
    assert.match(lines[4]!, /^Evidence missing: counted as failed, what this run lacks makes it Worse/)
    // fail-on: failing asks that every attempt pass: none failed, but the missing verdicts are evidence missing too.
    assert.equal((await compare(dir, baseline, judgeless, '--fail-on', 'failing')).code, 3)
  })

  test('an agent error is a failed attempt: a scenario whose agent now errors is Worse, and fails the gate', async () => {
    const attempts = await readAllAttempts(join(dir, 'results', broken))
    assert.equal(attempts.filter((a) => a.verdict === 'agent_error').length, 5)

    const json = JSON.parse((await compare(dir, baseline, broken, '--json')).stdout) as { verdict: string; scenarios: { worse: { id: string; after: { passed: number; judged: number } }[] } }
    assert.equal(json.verdict, 'worse')
    assert.deepEqual(json.scenarios.worse.map((s) => [s.id, s.after.passed, s.after.judged]), [['order', 0, 5]])
    const gated = await compare(dir, baseline, broken, '--fail-on', 'worse')
    assert.equal(gated.code, 1)
    assert.match(gated.stderr, /gate \(fail-on: worse\): fail: Worse than the baseline: order\./)
  })

  test("run.json records the prompts; a judge prompt the PR changed and no rejudge settled is evidence missing, said first, and fails unless asked", async () => {
    const runFile = join(dir, 'results', baseline, 'run.json')
    const recorded = await readFile(runFile, 'utf8')
    const manifest = JSON.parse(recorded) as Record<string, unknown> & { prompts: Record<string, unknown> }
    assert.match(String(manifest.prompts['judge']), /^[0-9a-f]{64}$/)
    assert.match(String(manifest.prompts['user']), /^[0-9a-f]{64}$/)
    assert.deepEqual([manifest.prompts['judgeTemperature'], manifest.prompts['judgeSamples']], [0, 1])

    // The baseline as an older convy-ci with another judge prompt would have written it.
    await writeFile(runFile, JSON.stringify({ ...manifest, convyVersion: '0.0.9', prompts: { ...manifest.prompts, judge: 'f'.repeat(64) } }))
    const markdown = await compare(dir, baseline, broken, '--markdown', '--fail-on', 'never')
    const lines = markdown.stdout.split('\n')
    assert.match(lines[2]!, /^### ⚠️ Inconclusive, evidence missing · Judge changed · Worse, not attributable to the agent · support\\_bot$/)
    assert.match(lines[4]!, /^Evidence missing: Worse \\\(order\\\), but the baseline was not judged as this run was and no rejudge settled it\. The judge's prompt changed/)
    const gated = await compare(dir, baseline, broken, '--fail-on', 'worse')
    assert.equal(gated.code, 3, gated.stderr)
    assert.match(gated.stderr, /inconclusive \(evidence missing\): Evidence missing: Worse \(order\), but the baseline was not judged as this run was/)
    assert.equal((await compare(dir, baseline, broken, '--fail-on', 'worse', '--no-fail-on-inconclusive')).code, 0)
    assert.equal((await compare(dir, baseline, broken, '--fail-on', 'worse', '--gate-across-judge-change')).code, 1)

    // A run.json from before prompts were recorded is still read, and compared on the judge model alone.
    const { prompts: _dropped, ...old } = manifest
    await writeFile(runFile, JSON.stringify(old))
    assert.equal((await compare(dir, baseline, broken, '--fail-on', 'worse')).code, 1)
    // The baseline is shared: put back what the run wrote.
    await writeFile(runFile, recorded)
  })

})
