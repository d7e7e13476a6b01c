import assert from 'node:assert/strict'
import type { FakeGitHub } from '../fakes/github-server.ts'
import type { FakeRun } from '../fakes/github-world.ts'
import { pullRequestEvent, pushEvent } from './events.ts'
import { describeStep, runActionStep, type ActionStep, type ActionStepResult } from './harness.ts'

/** The workflow steps the end-to-end tests play, in the shapes GitHub gives them. */
export const sha = (c: string) => c.repeat(40)
/** GITHUB_SHA of a pull_request run: a merge commit, never where checks belong. */
export const MERGE_COMMIT = sha('e')

// refund is flaky on purpose (the example bot forgets to ask why 30% of the time); leaving it out
// makes every verdict certain rather than likely.
// baseline-attempts as attempts: a push plays what a pull request plays, as these suites were written
// for (the default of 10 for a baseline is tested in base-rules.test.ts).
export const EXAMPLE_INPUTS = { agent: 'support_bot', attempts: '5', 'baseline-attempts': '5', scenarios: 'off-topic,order-status,password-reset,unknown-order' }

export function expectExit(result: ActionStepResult, code: number): void {
  assert.equal(result.code, code, describeStep(result))
}

export function pushStep(fake: FakeGitHub, workspace: string, inputs: Record<string, string>, headSha = sha('a')): ActionStep {
  const run = fake.world.startRun({ event: 'push', headBranch: fake.world.defaultBranch, headSha })
  return { run, eventName: 'push', payload: pushEvent(fake.world, headSha), inputs, workspace }
}

export interface PullRequestStep {
  number: number
  run: FakeRun
  inputs: Record<string, string>
  fork?: string
}

export function pullRequestStep(fake: FakeGitHub, workspace: string, pr: PullRequestStep, extra: Partial<ActionStep> = {}): ActionStep {
  return {
    run: pr.run,
    sha: MERGE_COMMIT,
    eventName: 'pull_request',
    payload: pullRequestEvent(fake.world, { number: pr.number, headSha: pr.run.headSha, headRef: pr.run.headBranch, ...(pr.fork ? { fork: pr.fork } : {}) }),
    inputs: pr.inputs,
    workspace,
    ...extra,
  }
}

/** A push to the default branch that succeeds: the baseline of what follows. Returns the run's id. */
export async function pushBaseline(fake: FakeGitHub, workspace: string, inputs: Record<string, string>): Promise<{ runId: string; run: FakeRun; result: ActionStepResult }> {
  const step = pushStep(fake, workspace, inputs)
  const result = await runActionStep(fake, step)
  expectExit(result, 0)
  fake.world.finishRun(step.run.id, 'success')
  return { runId: result.outputs['run-id']!, run: step.run, result }
}
