import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { startFakeGitHub, type FakeGitHub } from '../fakes/github-server.ts'
import { fakeGitHubForSuite } from '../fakes/github-suite.ts'
import { failingJudgeProject, failingJudgeSteps } from './failing-judge.ts'
import { expectExit, sha } from './steps.ts'

// A baseline with errors, through the bundle against the fake GitHub and a fake model server: the
// judge fails (a 500, tried once) on every third call of a default-branch run, so that run has 5 of
// its 15 attempts (33%) without a verdict: not enough to blind any scenario, too many for a baseline
// (3 of 15, 20%, is no more than a healthy run of this size has by chance: healthy since issue 38). The pull request walks back past it to the healthy run before;
// with no healthy run to walk back to, the gate does not pass on it.

describe('the action walks back to a healthy baseline', () => {
  let fake: FakeGitHub
  fakeGitHubForSuite(() => fake, (started) => (fake = started))
  const { push, pullRequest } = failingJudgeSteps(() => fake)
  const everyThird = (call: number) => call % 3 === 0

  test('past a newer run with a third of its attempts unjudged, to the healthy run before it; with none healthy, not a pass', async () => {
    const workspace = await failingJudgeProject()
    const healthy = await push(workspace, () => false, sha('1'))
    const broken = await push(workspace, everyThird, sha('2'))

    const walked = await pullRequest(workspace, 41, sha('3'))
    expectExit(walked.result, 0)
    assert.match(walked.comment, new RegExp(`Before: ${healthy.replace('_', '\\\\_').replace(/[/.]/g, '\\$&')}`), 'compared with the older, healthy run')
    // With adaptive attempts (the default) the baseline is chosen before the run, so a run passed over
    // is not held against this run's share of errors; the one compared with is, below.
    assert.match(walked.comment, /^<!-- convy-ci:echo -->\n\n### [^\n]*\n\n> ℹ️ Compared with an older run of the default branch: 1 newer run had too many errors to stand for it \(the baseline echo\/\S+ is unreliable: 5 of 15 attempts \\\(33%\\\) ended without a verdict(?:, against 0% in this run)?, above the 15% a baseline may have\)\./)
    assert.ok(walked.comment.includes(broken.split('_')[1]!), 'the run passed over is named')
    assert.deepEqual(walked.checks.map((c) => c.conclusion), ['success'])

    // (The comment escapes what could be markdown: GitHub shows \( as a parenthesis.)
    // A fresh repository whose only default-branch runs are unhealthy: the newest is used, said first, and the gate does not pass.
    await fake.close()
    fake = await startFakeGitHub()
    await push(workspace, everyThird, sha('4'))
    await push(workspace, everyThird, sha('5'))
    const none = await pullRequest(workspace, 42, sha('6'))
    // Evidence missing (a baseline to hold the run against) fails the step by default.
    expectExit(none.result, 1)
    assert.match(none.comment, /^<!-- convy-ci:echo -->\n\n### [^\n]*\n\n> ⚠️ The baseline echo\/\S+ is unreliable: 5 of 15 attempts \\\(33%\\\) ended without a verdict, against 0% in this run, above the 15% a baseline may have \\\(none of the newest 2 runs on the branch is healthier\\\)\./)
    assert.deepEqual(none.checks.map((c) => c.conclusion), ['failure'], 'within noise of an unhealthy baseline is not a pass')
    // A third of the baseline's attempts without a verdict is also more than the fifth a comparison may lack: said first.
    assert.match(none.result.stdout + none.result.stderr, /inconclusive \(fail-on: worse\): Evidence missing: 5 of 15 attempts before have no verdict/)
  })
})
