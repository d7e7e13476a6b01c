import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { fakeReply, startFakeModelServer, type FakeModelServer } from '../../src/entry/testing/fake-model-server.ts'
import { STOP_WORD } from '../../src/play/simulated-user/simulated-user-prompt.ts'
import { startFakeGitHub, type FakeGitHub } from '../fakes/github-server.ts'
import { fakeGitHubForSuite } from '../fakes/github-suite.ts'
import { describeStep, runActionStep } from './harness.ts'
import { expectExit, pullRequestStep, pushStep, sha } from './steps.ts'
import { modelsYml } from '../support/convy-yml.ts'
import { makeProject } from '../support/project.ts'

// A baseline with errors, through the bundle against the fake GitHub and a fake model server: the
// judge fails (a 500, tried once) on every fifth call of a default-branch run, so that run has one
// attempt of each of its three scenarios (20%) without a verdict: not enough to blind any scenario,
// too many for a baseline. The pull request walks back past it to the healthy run before;
// with no healthy run to walk back to, the gate does not pass on it.

const CONVY_YML = modelsYml({ urlVariable: 'MODELS_URL', maxTries: 1 })
const SCENARIO = 'user: Say hello.\njudge: [The agent greeted the user]\nmax_turns: 1\n'
const INPUTS = { agent: 'echo', attempts: '5', parallel: '1', cache: 'off' }

const checkout = () => makeProject({ 'convy.yml': CONVY_YML, 'scenarios/hello.yml': SCENARIO, 'scenarios/bye.yml': SCENARIO, 'scenarios/thanks.yml': SCENARIO })

describe('the action walks back to a healthy baseline', () => {
  let fake: FakeGitHub
  let models: FakeModelServer
  /** Whether the current step's nth judge call (0-based) fails with a 500. */
  let failing: (call: number) => boolean = () => false
  let calls = 0
  fakeGitHubForSuite(() => fake, (started) => (fake = started))
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
    await models.close()
  })
  const env = () => ({ MODELS_URL: models.url })

  const everyFifth = (call: number) => call % 5 === 0
  async function push(workspace: string, fails: (call: number) => boolean, headSha: string): Promise<string> {
    failing = fails
    calls = 0
    const step = pushStep(fake, workspace, INPUTS, headSha)
    const result = await runActionStep(fake, { ...step, env: env() })
    assert.ok(result.outputs['run-id'], describeStep(result))
    fake.world.finishRun(step.run.id, 'success')
    return result.outputs['run-id']!
  }

  async function pullRequest(workspace: string, number: number, headSha: string) {
    failing = () => false
    const run = fake.world.startRun({ event: 'pull_request', headBranch: `pr-${number}`, headSha })
    const result = await runActionStep(fake, { ...pullRequestStep(fake, workspace, { number, run, inputs: { ...INPUTS, comment: 'always' } }), env: env() })
    const [comment] = fake.world.commentsOn(number)
    assert.ok(comment, describeStep(result))
    const checks = fake.world.checkRuns.filter((c) => c.headSha === headSha)
    return { result, comment: comment.body, conclusions: checks.map((c) => c.conclusion) }
  }

  test('past a newer run with 20% of its attempts unjudged, to the healthy run before it; with none healthy, not a pass', async () => {
    const workspace = await checkout()
    const healthy = await push(workspace, () => false, sha('1'))
    const broken = await push(workspace, everyFifth, sha('2'))

    const walked = await pullRequest(workspace, 41, sha('3'))
    expectExit(walked.result, 0)
    assert.match(walked.comment, new RegExp(`Before: ${healthy.replace('_', '\\\\_').replace(/[/.]/g, '\\$&')}`), 'compared with the older, healthy run')
    assert.match(walked.comment, /^<!-- convy-ci:echo -->\n\n### [^\n]*\n\n> ℹ️ Compared with an older run of the default branch: 1 newer run had too many errors to stand for it \(the baseline echo\/\S+ is unreliable: 3 of 15 attempts \\\(20%\\\) ended without a verdict, against 0% in this run, above the 15% a baseline may have\)\./)
    assert.ok(walked.comment.includes(broken.split('_')[1]!), 'the run passed over is named')
    assert.deepEqual(walked.conclusions, ['success'])

    // (The comment escapes what could be markdown: GitHub shows \( as a parenthesis.)
    // A fresh repository whose only default-branch runs are unhealthy: the newest is used, said first, and the gate does not pass.
    await fake.close()
    fake = await startFakeGitHub()
    await push(workspace, everyFifth, sha('4'))
    await push(workspace, everyFifth, sha('5'))
    const none = await pullRequest(workspace, 42, sha('6'))
    // Evidence missing (a baseline to hold the run against) fails the step by default.
    expectExit(none.result, 1)
    assert.match(none.comment, /^<!-- convy-ci:echo -->\n\n### [^\n]*\n\n> ⚠️ The baseline echo\/\S+ is unreliable: 3 of 15 attempts \\\(20%\\\) ended without a verdict, against 0% in this run, above the 15% a baseline may have \\\(none of the newest 2 runs on the branch is healthier\\\)\./)
    assert.deepEqual(none.conclusions, ['failure'], 'within noise of an unhealthy baseline is not a pass')
    assert.match(none.result.stdout + none.result.stderr, /inconclusive \(fail-on: worse\): Not a pass: the baseline echo\/\S+ is unreliable/)
  })
})
