import assert from 'node:assert/strict'
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, afterEach, before, describe, test } from 'node:test'
import { fakeReply, startFakeModelServer, type FakeModelServer } from '../../src/entry/testing/fake-model-server.ts'
import { STOP_WORD } from '../../src/play/simulated-user/simulated-user-prompt.ts'
import { startFakeGitHub, type FakeGitHub } from '../fakes/github-server.ts'
import { describeStep, runActionStep } from './harness.ts'
import { expectExit, pullRequestStep, pushStep, sha } from './steps.ts'

// The adversary's route around the gate, through the bundle: a workflow that lets the step pass
// (fail-on: never) and gates on the `verdict` output instead (`if: steps.convy.outputs.verdict ==
// 'worse'` or `!= 'inconclusive'`). The verdict output used to ignore the baseline's health and the
// judge's calibration, so over an unhealthy baseline it said within-noise while the gate said
// evidence missing. Now it comes from the gate's one decision (verdict/decide-gate.ts).

const CONVY_YML = `models:
  base_url: \${MODELS_URL}
  user: user-model
  judge: judge-model
  max_tries: 1
`
const SCENARIO = 'user: Say hello.\njudge: [The agent greeted the user]\nmax_turns: 1\n'
const INPUTS = { agent: 'echo', attempts: '5', parallel: '1', cache: 'off' }

async function checkout(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'convy-action-gate-'))
  await mkdir(join(dir, 'scenarios'))
  await writeFile(join(dir, 'convy.yml'), CONVY_YML)
  for (const id of ['hello', 'bye', 'thanks']) await writeFile(join(dir, 'scenarios', `${id}.yml`), SCENARIO)
  return dir
}

describe("the action's verdict output is the gate's", () => {
  let fake: FakeGitHub
  let models: FakeModelServer
  let failing: (call: number) => boolean = () => false
  let calls = 0
  before(async () => {
    models = await startFakeModelServer({
      user: ({ dialogue }) => (dialogue.length === 0 ? 'hello there' : STOP_WORD),
      handler: ({ judge }) => {
        if (!judge) return undefined
        return failing(calls++) ? fakeReply.serverError() : undefined
      },
    })
  })
  after(async () => {
    await fake?.close()
    await models.close()
  })
  afterEach(() => assert.deepEqual(fake.violations, []))
  const env = () => ({ MODELS_URL: models.url })

  async function push(workspace: string, fails: (call: number) => boolean, headSha: string): Promise<void> {
    failing = fails
    calls = 0
    const step = pushStep(fake, workspace, INPUTS, headSha)
    const result = await runActionStep(fake, { ...step, env: env() })
    assert.ok(result.outputs['run-id'], describeStep(result))
    fake.world.finishRun(step.run.id, 'success')
  }

  async function pullRequest(workspace: string, number: number, headSha: string, inputs: Record<string, string>) {
    failing = () => false
    const run = fake.world.startRun({ event: 'pull_request', headBranch: `pr-${number}`, headSha })
    const result = await runActionStep(fake, { ...pullRequestStep(fake, workspace, { number, run, inputs: { ...INPUTS, comment: 'always', ...inputs } }), env: env() })
    const [comment] = fake.world.commentsOn(number)
    assert.ok(comment, describeStep(result))
    const checks = fake.world.checkRuns.filter((c) => c.headSha === headSha)
    return { result, comment: comment.body, checks }
  }

  test('over an unhealthy baseline with fail-on: never, the step passes but the verdict is inconclusive (evidence missing), not within-noise', async () => {
    fake = await startFakeGitHub()
    const workspace = await checkout()
    // Every fifth judge call fails: 3 of 15 attempts (20%) without a verdict, an unhealthy baseline, and the only one.
    await push(workspace, (call) => call % 5 === 0, sha('1'))
    const pr = await pullRequest(workspace, 51, sha('2'), { 'fail-on': 'never' })
    expectExit(pr.result, 0)
    assert.equal(pr.result.outputs.verdict, 'inconclusive', describeStep(pr.result))
    assert.equal(pr.result.outputs.inconclusive, 'evidence-missing')
    assert.deepEqual(JSON.parse(pr.result.outputs.results!).map((r: { verdict: string; inconclusive: string }) => [r.verdict, r.inconclusive]), [['inconclusive', 'evidence-missing']])
    assert.deepEqual(pr.checks.map((c) => c.conclusion), ['neutral'], 'never a green check over it')
    assert.match(pr.checks[0]!.title ?? '', /^Gate: inconclusive · Within noise: pass rate/)
    // The comment says the gate's decision under the heading, after the baseline's own warning.
    assert.match(pr.comment, /^<!-- convy-ci:echo -->\n\n### ⬜ ~ Within noise · echo\n\n> ⚠️ The baseline echo\/\S+ is unreliable: [^\n]+\n\n> \*\*🟧 Gate: inconclusive, evidence missing\*\* \(verdict: inconclusive\)\. Not a pass: the baseline echo\/\S+ is unreliable/)
  })

  test('with judge-min-kappa and no calibration, over a healthy baseline, the verdict is inconclusive and the step fails', async () => {
    await fake.close()
    fake = await startFakeGitHub()
    const workspace = await checkout()
    await push(workspace, () => false, sha('3'))
    const pr = await pullRequest(workspace, 52, sha('4'), { 'judge-min-kappa': '0.6' })
    expectExit(pr.result, 1)
    assert.equal(pr.result.outputs.verdict, 'inconclusive', describeStep(pr.result))
    assert.equal(pr.result.outputs.inconclusive, 'evidence-missing')
    assert.deepEqual(pr.checks.map((c) => c.conclusion), ['failure'])
    assert.match(pr.comment, /> \*\*🟧 Gate: inconclusive, evidence missing\*\* \(verdict: inconclusive\)\. The verdict rests on an unchecked judge: no calibration of this judge against labels/)
  })
})
