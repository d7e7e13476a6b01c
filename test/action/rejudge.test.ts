import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { startFakeModelServer, type FakeModelServer } from '../../src/entry/testing/fake-model-server.ts'
import type { FakeGitHub } from '../fakes/github-server.ts'
import { fakeGitHubForSuite } from '../fakes/github-suite.ts'
import { describeStep, runActionStep } from './harness.ts'
import { seedBaseline } from './seeded-baseline.ts'
import { expectExit, pullRequestStep, sha } from './steps.ts'
import { modelsYml } from '../support/convy-yml.ts'
import { makeProject } from '../support/project.ts'

// The action's `rejudge` input through the bundle: a pull request whose only change is a judge that
// cannot make up its mind. Attempts run one at a time and the model cache is off, so the judge's
// calls arrive in a known order and each is a real call.

const CONVY_YML = modelsYml({ urlVariable: 'MODELS_URL' })
const SCENARIO = 'user: Say hello and ask how the agent is.\njudge: [The agent repeats the greeting]\n'
const INPUTS = { agent: 'echo', attempts: '5', parallel: '1', cache: 'off' }

const checkout = () => makeProject({ 'convy.yml': CONVY_YML, 'scenarios/hello.yml': SCENARIO })

describe('the action with rejudge', () => {
  let fake: FakeGitHub
  let models: FakeModelServer
  /** The judge's decision on its nth call of a step (0-based). */
  let decide: (call: number) => boolean = () => true
  let calls = 0
  fakeGitHubForSuite(() => fake, (started) => (fake = started))
  before(async () => {
    models = await startFakeModelServer({ user: () => 'hello there ###STOP###', judge: ({ claims }) => claims.map(() => ({ pass: decide(calls++), reason: 'scripted' })) })
  })
  after(async () => {
    await models.close()
  })
  const env = () => ({ MODELS_URL: models.url })
  const judgeCalls = () => models.requests.filter((r) => r.kind === 'judge').length

  test('a drop that comes from a judge disagreeing with itself is settled by judging both sides again: judge-unstable is noted and the gate passes', async () => {
    const workspace = await checkout()
    calls = 0
    decide = () => true
    // main's run, made by the bundled CLI (the action's own push is in pull-requests.test.ts).
    await seedBaseline(fake, workspace, INPUTS, { env: env() })

    // The pull request's judge says no on its first five calls (the run), then no, no, yes on each attempt's three samples:
    // the PR's attempts, then the baseline's, judged alike.
    const judgeNow = (call: number) => call >= 5 && (call - 5) % 3 === 2
    calls = 0
    decide = judgeNow
    const plain = fake.world.startRun({ event: 'pull_request', headBranch: 'judge-drift', headSha: sha('d') })
    const without = await runActionStep(fake, { ...pullRequestStep(fake, workspace, { number: 31, run: plain, inputs: INPUTS }), env: env() })
    expectExit(without, 1)
    assert.equal(without.outputs.verdict, 'worse', describeStep(without))

    calls = 0
    decide = judgeNow
    const judgedBefore = judgeCalls()
    const run = fake.world.startRun({ event: 'pull_request', headBranch: 'judge-drift', headSha: sha('e') })
    const result = await runActionStep(fake, { ...pullRequestStep(fake, workspace, { number: 32, run, inputs: { ...INPUTS, rejudge: '3' } }), env: env() })
    expectExit(result, 0)
    assert.equal(judgeCalls() - judgedBefore, 5 + 5 * 3 + 5 * 3, 'the run’s five judgements, then three samples of each attempt of the scenario that decided it, on both sides')
    assert.equal(result.outputs.verdict, 'within-noise', describeStep(result))
    const [comment] = fake.world.commentsOn(32)
    assert.ok(comment, describeStep(result))
    assert.match(comment.body, /### ⚖️ Judge-unstable · 1 scenario moved only as the judge disagrees with itself · echo/)
    // The baseline's attempts of the deciding scenario were judged three times again too, by the same judge: it flips there as well.
    assert.match(comment.body, /- hello: judge-unstable: it moved down beyond noise, but the judge disagrees with itself here \(judge flip rate 67% before, 67% after; both runs pooled: judge noise Ĵ = 0\.333, agent spread Â = 0\.000\)/)
    assert.match(comment.body, /^<!-- convy-ci:echo -->\n\n### ⚖️ Judge-unstable[^\n]*\n\n> ℹ️ The attempts of 1 scenario that decided the first comparison were judged 3 times again on both sides\.\n/)
    const checks = fake.world.checkRuns.filter((c) => c.headSha === run.headSha)
    assert.deepEqual(checks.map((c) => c.conclusion), ['success'], describeStep(result))
  })
})
