import assert from 'node:assert/strict'
import { after, before } from 'node:test'
import { fakeReply, startFakeModelServer, type FakeModelServer } from '../../src/entry/testing/fake-model-server.ts'
import { STOP_WORD } from '../../src/play/simulated-user/simulated-user-prompt.ts'
import type { FakeGitHub } from '../fakes/github-server.ts'
import { modelsYml } from '../support/convy-yml.ts'
import { makeProject } from '../support/project.ts'
import { describeStep, runActionStep, type ActionStepResult } from './harness.ts'
import { seedBaseline } from './seeded-baseline.ts'
import { pullRequestStep } from './steps.ts'

/**
 * The built-in echo agent on three one-turn scenarios, judged by a fake model server whose judge
 * fails (a 500, tried once) on the calls a step chooses: runs with as many attempts without a
 * verdict as a test needs, for the gate's walks around an unhealthy baseline.
 */
export const FAILING_JUDGE_INPUTS = { agent: 'echo', attempts: '5', parallel: '1', cache: 'off' }

const SCENARIO = 'user: Say hello.\njudge: [The agent greeted the user]\nmax_turns: 1\n'

export const failingJudgeProject = () =>
  makeProject({ 'convy.yml': modelsYml({ urlVariable: 'MODELS_URL', maxTries: 1 }), 'scenarios/hello.yml': SCENARIO, 'scenarios/bye.yml': SCENARIO, 'scenarios/thanks.yml': SCENARIO })

export interface PullRequestSeen {
  result: ActionStepResult
  comment: string
  checks: FakeGitHub['world']['checkRuns']
}

export interface FailingJudgeSteps {
  /**
   * A successful push of the default branch whose nth judge call (0-based) fails where `fails` says,
   * its run made by the bundled CLI (seeded-baseline.ts). Returns its run id.
   */
  push(workspace: string, fails: (call: number) => boolean, headSha: string): Promise<string>
  /** A pull request judged without failures, commented always; its comment and the checks on its head. */
  pullRequest(workspace: string, number: number, headSha: string, inputs?: Record<string, string>): Promise<PullRequestSeen>
}

/** Starts the model server before the suite's tests and closes it after; `fake` is the suite's current fake GitHub. */
export function failingJudgeSteps(fake: () => FakeGitHub): FailingJudgeSteps {
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
    await models.close()
  })
  const env = () => ({ MODELS_URL: models.url })

  return {
    async push(workspace, fails, headSha) {
      failing = fails
      calls = 0
      const { runId } = await seedBaseline(fake(), workspace, FAILING_JUDGE_INPUTS, { env: env(), headSha, exits: [0, 1] })
      return runId
    },
    async pullRequest(workspace, number, headSha, inputs = {}) {
      failing = () => false
      const github = fake()
      const run = github.world.startRun({ event: 'pull_request', headBranch: `pr-${number}`, headSha })
      const result = await runActionStep(github, { ...pullRequestStep(github, workspace, { number, run, inputs: { ...FAILING_JUDGE_INPUTS, comment: 'always', ...inputs } }), env: env() })
      const [comment] = github.world.commentsOn(number)
      assert.ok(comment, describeStep(result))
      return { result, comment: comment.body, checks: github.world.checkRuns.filter((c) => c.headSha === headSha) }
    },
  }
}
