import assert from 'node:assert/strict'
import { before, describe, test } from 'node:test'
import { commentMarker } from '../../src/views/markdown/compare-markdown.ts'
import { shortId } from '../../src/records/journal/run-folder.ts'
import type { FakeGitHub } from '../fakes/github-server.ts'
import { fakeGitHubForSuite } from '../fakes/github-suite.ts'
import type { FakeRun } from '../fakes/github-world.ts'
import { workflowRunEvent } from './events.ts'
import { describeStep, exampleWorkspace, runActionStep, type ActionStep } from './harness.ts'
import { seedBaseline } from './seeded-baseline.ts'
import { EXAMPLE_INPUTS as INPUTS, expectExit, pullRequestStep, sha } from './steps.ts'

// Pull requests from forks: the bundled action in the pull request's own workflow (read-only token),
// then in a workflow_run workflow with mode: publish.

const MARKER = commentMarker('support_bot')

describe('the action on pull requests from forks', () => {
  let fake: FakeGitHub
  let workspace: string
  let baselineRunId: string
  let pushRun: FakeRun

  fakeGitHubForSuite(() => fake, (started) => (fake = started))
  before(async () => {
    workspace = await exampleWorkspace()
    // main's run, made by the bundled CLI (the action's own push is in pull-requests.test.ts).
    ;({ runId: baselineRunId, run: pushRun } = await seedBaseline(fake, workspace, INPUTS))
  })

  const ourComments = (pr: number) => fake.world.commentsOn(pr).filter((c) => c.body.startsWith(MARKER))

  let forkRun: FakeRun
  test('a pull request from a fork: it runs, uploads and compares, tries no write through the API, and says what it skipped', async () => {
    fake.readOnly = true
    try {
      // The fork's own main branch: its run must never become the baseline of main.
      forkRun = fake.world.startRun({ event: 'pull_request', headBranch: 'main', headSha: sha('f'), headRepository: 'mallory/support-bot' })
      fake.world.pulls.set(14, { number: 14, headSha: forkRun.headSha, headRef: 'main', headRepository: 'mallory/support-bot', baseRef: 'main' })
      const writesBefore = fake.restWrites().length
      const result = await runActionStep(fake, pullRequestStep(fake, workspace, { number: 14, run: forkRun, inputs: INPUTS, fork: 'mallory/support-bot' }, { actor: 'mallory' }))
      expectExit(result, 0)
      fake.world.finishRun(forkRun.id, 'success')
      assert.equal(fake.restWrites().length, writesBefore, 'no write was even tried')
      assert.ok(
        result.annotations.some((a) => a.level === 'notice' && /the comment and check on pull request #14 were skipped: this pull request comes from a fork/.test(a.message)),
        describeStep(result),
      )
      assert.equal(result.outputs.verdict, 'within-noise')
      assert.match(result.summary, /Within noise/)
      assert.deepEqual(fake.world.artifactsOf(forkRun.id).map((a) => a.name).sort(), ['convy-support_bot', 'convy-support_bot+summary', 'convy-support_bot-report.html'])
    } finally {
      fake.readOnly = false
    }
  })

  const publishStep = (headSha: string, pulls: number[] = []): ActionStep => {
    const run = fake.world.startRun({ event: 'workflow_run', headBranch: 'main', headSha: pushRun.headSha })
    return {
      run,
      eventName: 'workflow_run',
      payload: workflowRunEvent(fake.world, { ...forkRun, headSha }, pulls),
      inputs: { mode: 'publish', agent: 'support_bot', comment: 'always' },
      workspace,
    }
  }

  test('publish mode, in a workflow_run workflow: the fork run’s artifact, checked against the API, becomes the comment and the check — unverified, never success', async () => {
    const result = await runActionStep(fake, publishStep(forkRun.headSha))
    expectExit(result, 0)
    const [comment, ...more] = ourComments(14)
    assert.equal(more.length, 0)
    assert.match(comment?.body ?? '', /### ⬜ ~ Within noise · support\\_bot/)
    assert.ok(comment?.body.includes(`\\_${shortId(baselineRunId)}`), 'compared with main’s run, not the fork’s main')
    assert.ok(comment?.body.includes(`/actions/runs/${forkRun.id}/artifacts/`), 'links the fork run’s report')
    // The fork's run says every attempt went as on main; nothing here can check that it was played as it
    // says (its workflow was the fork's), so the check is neutral, said at the top of the comment and in the title.
    assert.match(comment?.body ?? '', /^### [^\n]*\n\n> ⚠️ \*\*Unverified: produced by a fork's workflow \\?\(mallory\/support-bot\\?\)\.\*\*/m)
    const check = fake.world.checkRuns.find((c) => c.headSha === forkRun.headSha)
    assert.equal(check?.conclusion, 'neutral')
    assert.match(check?.title ?? '', /^Unverified \(a fork’s workflow\) · /)
    assert.match(check?.summary ?? '', /Unverified: produced by a fork's workflow/)
    assert.equal(result.outputs.verdict, 'within-noise')
    assert.ok(fake.calls.some((c) => c.operation === 'pulls/get'))
    assert.ok(fake.calls.some((c) => c.operation === 'actions/download-artifact' && c.status === 302))
  })

  test('publish mode refuses an artifact whose run is not of the commit the workflow ran on', async () => {
    const writesBefore = fake.restWrites().length
    const result = await runActionStep(fake, publishStep(sha('9')))
    expectExit(result, 1)
    assert.ok(result.annotations.some((a) => a.level === 'error' && /refusing to publish support_bot .*its run is of commit f{40}, but the workflow run was of 9{40}/.test(a.message)), describeStep(result))
    assert.equal(fake.restWrites().length, writesBefore)
  })

  test('publish mode says nothing when the pull request has moved on', async () => {
    fake.world.pulls.get(14)!.headSha = sha('8')
    const writesBefore = fake.restWrites().length
    const result = await runActionStep(fake, publishStep(forkRun.headSha))
    expectExit(result, 0)
    assert.ok(result.annotations.some((a) => a.level === 'notice' && /has moved past fffffff/.test(a.message)), describeStep(result))
    assert.equal(fake.restWrites().length, writesBefore)
  })
})
