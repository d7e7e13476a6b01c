import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { startFakeGitHub, type FakeGitHub } from '../fakes/github-server.ts'
import { fakeGitHubForSuite } from '../fakes/github-suite.ts'
import { describeStep } from './harness.ts'
import { failingJudgeProject, failingJudgeSteps } from './failing-judge.ts'
import { expectExit, sha } from './steps.ts'

// The adversary's route around the gate, through the bundle: a workflow that lets the step pass
// (fail-on: never) and gates on the `verdict` output instead (`if: steps.convy.outputs.verdict ==
// 'worse'` or `!= 'inconclusive'`). The verdict output used to ignore the baseline's health and the
// judge's calibration, so over an unhealthy baseline it said within-noise while the gate said
// evidence missing. Now it comes from the gate's one decision (verdict/decide-gate.ts).

describe("the action's verdict output is the gate's", () => {
  let fake: FakeGitHub
  fakeGitHubForSuite(() => fake, (started) => (fake = started))
  const { push, pullRequest } = failingJudgeSteps(() => fake)

  test('over an unhealthy baseline with fail-on: never, the step passes but the verdict is inconclusive (evidence missing), not within-noise', async () => {
    const workspace = await failingJudgeProject()
    // Every third judge call fails: 5 of 15 attempts (33%) without a verdict, an unhealthy baseline, and the only one
    // (3 of 15 is above 15% but no more than a healthy run has by chance in a run this small: healthy since issue 38).
    await push(workspace, (call) => call % 3 === 0, sha('1'))
    const pr = await pullRequest(workspace, 51, sha('2'), { 'fail-on': 'never' })
    expectExit(pr.result, 0)
    assert.equal(pr.result.outputs.verdict, 'inconclusive', describeStep(pr.result))
    assert.equal(pr.result.outputs.inconclusive, 'evidence-missing')
    assert.deepEqual(JSON.parse(pr.result.outputs.results!).map((r: { verdict: string; inconclusive: string }) => [r.verdict, r.inconclusive]), [['inconclusive', 'evidence-missing']])
    assert.deepEqual(pr.checks.map((c) => c.conclusion), ['neutral'], 'never a green check over it')
    // A third of the baseline's attempts without a verdict is also more than a comparison may lack: its standing says so first.
    assert.match(pr.checks[0]!.title ?? '', /^Inconclusive, evidence missing · Not decided: pass rate/)
    // The comment says the gate's decision under the heading, after the baseline's own warning.
    assert.match(pr.comment, /^<!-- convy-ci:echo -->\n\n### [^\n]*Inconclusive, evidence missing[^\n]*\n\n> ⚠️ The baseline echo\/\S+ is unreliable: 5 of 15 attempts/)
  })

  test('with judge-min-kappa and no calibration, over a healthy baseline, the verdict is inconclusive and the step fails', async () => {
    await fake.close()
    fake = await startFakeGitHub()
    const workspace = await failingJudgeProject()
    await push(workspace, () => false, sha('3'))
    const pr = await pullRequest(workspace, 52, sha('4'), { 'judge-min-kappa': '0.6' })
    expectExit(pr.result, 1)
    assert.equal(pr.result.outputs.verdict, 'inconclusive', describeStep(pr.result))
    assert.equal(pr.result.outputs.inconclusive, 'evidence-missing')
    assert.deepEqual(pr.checks.map((c) => c.conclusion), ['failure'])
    assert.match(pr.comment, /> \*\*🟧 Gate: inconclusive, evidence missing\*\* \(verdict: inconclusive\)\. The verdict rests on an unchecked judge: no calibration of this judge against labels/)
  })
})
