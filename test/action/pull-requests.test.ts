import assert from 'node:assert/strict'
import { mkdtemp, readFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { before, describe, test } from 'node:test'
import { commentMarker } from '../../src/views/markdown/compare-markdown.ts'
import { runDir, shortId } from '../../src/records/journal/run-folder.ts'
import { unzip } from '../../src/adapters/github/unzip.ts'
import type { FakeGitHub } from '../fakes/github-server.ts'
import { fakeGitHubForSuite } from '../fakes/github-suite.ts'
import { mergeGroupEvent, pullRequestEvent, pushEvent } from './events.ts'
import type { FakeRun } from '../fakes/github-world.ts'
import { describeStep, exampleWorkspace, runActionStep, type ActionStepResult } from './harness.ts'
import { EXAMPLE_INPUTS as INPUTS, expectExit, MERGE_COMMIT, sha } from './steps.ts'

// The bundled action, end to end, against a fake GitHub that validates every REST call against
// GitHub's OpenAPI description, with the real artifact client. The steps build on each other like a
// repository's history: a push makes the baseline, pull requests are compared with it.

const MARKER = commentMarker('support_bot')

describe('the action on pushes and pull requests of the repository', () => {
  let fake: FakeGitHub
  let workspace: string
  let baselineRunId: string

  fakeGitHubForSuite(() => fake, (started) => (fake = started))
  before(async () => {
    workspace = await exampleWorkspace()
  })

  const ourComments = (pr: number) => fake.world.commentsOn(pr).filter((c) => c.body.startsWith(MARKER))

  test('a push to the default branch plays the run and uploads it, zipped, and its report, unzipped; it posts nothing', async () => {
    const pushRun = fake.world.startRun({ event: 'push', headBranch: 'main', headSha: sha('a') })
    const writesBefore = fake.restWrites().length
    const result = await runActionStep(fake, { run: pushRun, eventName: 'push', payload: pushEvent(fake.world, pushRun.headSha), inputs: INPUTS, workspace })
    expectExit(result, 0)
    fake.world.finishRun(pushRun.id, 'success')

    baselineRunId = result.outputs['run-id']!
    assert.match(baselineRunId, /^support_bot\/\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d_[0-9a-f]{4}$/)
    assert.equal(result.outputs.verdict, 'no-baseline')
    assert.equal(result.outputs['pass-rate'], '1')
    const [folder, report, summary, ...others] = fake.world.artifactsOf(pushRun.id)
    assert.equal(others.length, 0)
    assert.equal(summary?.name, 'convy-support_bot+summary')
    assert.equal(folder?.name, 'convy-support_bot')
    assert.equal(folder.mimeType, 'application/zip')
    const zip = fake.world.artifactBytes(folder)
    assert.equal(zip.subarray(0, 4).toString('latin1'), 'PK\x03\x04')
    const unzipped = await mkdtemp(join(tmpdir(), 'convy-artifact-'))
    assert.deepEqual((await unzip(zip, unzipped)).sort(), ['attempts.jsonl', 'report.html', 'run.json'])
    const runFolder = runDir(join(workspace, 'results'), baselineRunId)
    for (const file of ['run.json', 'attempts.jsonl']) assert.equal(await readFile(join(unzipped, file), 'utf8'), await readFile(join(runFolder, file), 'utf8'))
    assert.equal(report?.name, 'convy-support_bot-report.html')
    assert.equal(report.mimeType, 'text/html')
    assert.match(fake.world.artifactBytes(report).subarray(0, 100).toString('utf8'), /^<!doctype html>/i)
    assert.equal(result.outputs['report-url'], `https://github.com/acme/support-bot/actions/runs/${pushRun.id}/artifacts/${report.id}`)
    assert.equal(fake.restWrites().length, writesBefore)
    assert.match(result.summary, /pass rate 100% · 20 of 20/)
    assert.doesNotMatch(result.summary, /No baseline/)
  })

  test('a pull request that made the agent worse: a Worse comment, a failing check on the head commit, outputs, the same text as job summary', async () => {
    // What the baseline search must pass over: a newer successful run whose artifact expired, and a
    // newer failed one whose artifact is not even a zip.
    const expired = fake.world.startRun({ event: 'push', headBranch: 'main', headSha: sha('1') })
    fake.world.addArtifact(expired.id, 'convy-support_bot', Buffer.from('expired'), { expired: true })
    fake.world.finishRun(expired.id, 'success')
    const failed = fake.world.startRun({ event: 'push', headBranch: 'main', headSha: sha('2') })
    fake.world.addArtifact(failed.id, 'convy-support_bot', Buffer.from('not a zip'))
    fake.world.finishRun(failed.id, 'failure')
    // A long conversation: the action's comment will be on the second page.
    for (let i = 0; i < 100; i++) fake.world.comments.push({ id: fake.world.id(), issueNumber: 12, body: `review comment ${i}`, login: 'reviewer', createdAt: fake.world.now(), updatedAt: fake.world.now() })

    const run = fake.world.startRun({ event: 'pull_request', headBranch: 'fix-greeting', headSha: sha('b') })
    fake.world.pulls.set(12, { number: 12, headSha: run.headSha, headRef: 'fix-greeting', headRepository: fake.world.fullName, baseRef: 'main' })
    const workflowReadsBefore = fake.calls.filter((c) => c.operation === 'actions/get-workflow-run').length
    const result = await runActionStep(fake, {
      run,
      sha: MERGE_COMMIT,
      eventName: 'pull_request',
      payload: pullRequestEvent(fake.world, { number: 12, headSha: run.headSha, headRef: 'fix-greeting' }),
      inputs: INPUTS,
      workspace,
      env: { SUPPORT_BOT_VARIANT: 'regressed' },
    })
    expectExit(result, 1)
    fake.world.finishRun(run.id, 'failure')
    assert.ok(result.annotations.some((a) => a.level === 'error' && a.message === 'support_bot: worse than the baseline (fail-on: worse)'), describeStep(result))
    // The trend and the baseline both search this run's workflow: one request tells both.
    assert.equal(fake.calls.filter((c) => c.operation === 'actions/get-workflow-run').length - workflowReadsBefore, 1)

    const [comment, ...more] = ourComments(12)
    assert.equal(more.length, 0)
    assert.ok(comment)
    assert.match(comment.body, /^<!-- convy-ci:support_bot -->\n\n### 🟥 Worse · support\\_bot/)
    assert.ok(comment.body.includes(`\\_${shortId(baselineRunId)}`), 'the baseline is the push run, not a newer expired, failed or pull request run')
    // The row links the scenario in the report and names what broke: the example bot's regressed
    // variant no longer gives the order's status.
    const row = comment.body.split('\n').find((line) => line.startsWith('| [order-status]('))
    assert.ok(row, comment.body)
    assert.ok(row.startsWith(`| [order-status](${result.outputs['report-url']}#scenario-order-status) | 5/5 | 0/5 |`), row)
    assert.match(row, /(“[^”]+”|check [^|]+) 5\/5 → 0\/5/)
    assert.equal(result.outputs.verdict, 'worse')
    assert.equal(result.outputs['comment-url'], `https://github.com/acme/support-bot/pull/12#issuecomment-${comment.id}`)
    assert.match(result.outputs['report-url']!, new RegExp(`/actions/runs/${run.id}/artifacts/\\d+$`))
    assert.ok(comment.body.includes(`[Full report](${result.outputs['report-url']})`))
    assert.equal(result.outputs['pass-rate'], '0.75')
    assert.equal(result.summary.trim(), comment.body.trim())

    const checks = fake.world.checkRuns.filter((c) => c.name === 'convy / support_bot')
    assert.equal(checks.length, 1)
    assert.equal(checks[0]!.headSha, run.headSha, 'on the pull request head, not the merge commit')
    assert.equal(checks[0]!.conclusion, 'failure')
    assert.equal(checks[0]!.status, 'completed')
    assert.match(checks[0]!.title ?? '', /^Worse: pass rate 100% → 75%$/)
    assert.equal(checks[0]!.summary, comment.body)
    assert.equal(checks[0]!.detailsUrl, result.outputs['report-url'])
  })

  test('the next push to the pull request updates the same comment, found on the second page', async () => {
    const before = { ...ourComments(12)[0]! }
    const run = fake.world.startRun({ event: 'pull_request', headBranch: 'fix-greeting', headSha: sha('c') })
    fake.world.pulls.get(12)!.headSha = run.headSha
    const listsBefore = fake.calls.filter((c) => c.operation === 'issues/list-comments').length
    const result = await runActionStep(fake, {
      run,
      sha: MERGE_COMMIT,
      eventName: 'pull_request',
      payload: pullRequestEvent(fake.world, { number: 12, headSha: run.headSha, headRef: 'fix-greeting' }),
      inputs: INPUTS,
      workspace,
    })
    expectExit(result, 0)
    fake.world.finishRun(run.id, 'success')

    const comments = ourComments(12)
    assert.equal(comments.length, 1, 'one comment per agent')
    assert.equal(comments[0]!.id, before.id)
    assert.notEqual(comments[0]!.updatedAt, before.updatedAt)
    assert.match(comments[0]!.body, /### ⬜ ~ Within noise · support\\_bot/)
    assert.ok(comments[0]!.body.includes(`\\_${shortId(result.outputs['run-id']!)}`))
    assert.equal(result.outputs.verdict, 'within-noise')
    assert.equal(fake.calls.filter((c) => c.operation === 'issues/list-comments').length - listsBefore, 2, 'both pages were read')
    const check = fake.world.checkRuns.find((c) => c.headSha === run.headSha)
    assert.equal(check?.conclusion, 'success')
  })

  test('no baseline: never green — a neutral check, and a comment (even under on-change) that says why and how to make one', async () => {
    const run = fake.world.startRun({ event: 'pull_request', headBranch: 'other', headSha: sha('d') })
    const result = await runActionStep(fake, {
      run,
      sha: MERGE_COMMIT,
      eventName: 'pull_request',
      payload: pullRequestEvent(fake.world, { number: 13, headSha: run.headSha, headRef: 'other' }),
      // Nothing on main was uploaded under this name.
      inputs: { ...INPUTS, 'artifact-name': 'fresh' },
      workspace,
    })
    // Neutral does not fail the step: there is nothing to hold the run against, not a failure of it.
    expectExit(result, 0)
    fake.world.finishRun(run.id, 'success')
    assert.equal(result.outputs.verdict, 'no-baseline')
    assert.ok(result.annotations.some((a) => a.level === 'notice' && /no successful run of this workflow on main uploaded fresh-support_bot/.test(a.message)), describeStep(result))
    const comments = fake.world.commentsOn(13).filter((c) => c.body.startsWith(commentMarker('support_bot', 'fresh')))
    assert.equal(comments.length, 1)
    for (const text of [result.summary, comments[0]!.body]) {
      assert.match(text, /### ⬜ No baseline · support\\_bot \(fresh\)\n\nNothing to compare with: no successful run[^\n]*\n\n\*\*Not a pass\*\* \(a neutral check\)[^\n]*To make one: run this workflow on the default branch/)
    }
    const checks = fake.world.checkRuns.filter((c) => c.headSha === run.headSha)
    assert.equal(checks.length, 1)
    assert.equal(checks[0]!.conclusion, 'neutral')
    assert.match(checks[0]!.title ?? '', /^No baseline: pass rate 100% \(20 of 20\)$/)
    assert.match(checks[0]!.summary ?? '', /To make one: run this workflow on the default branch/)
    assert.deepEqual(fake.world.artifactsOf(run.id).map((a) => a.name).sort(), ['fresh-support_bot', 'fresh-support_bot+summary', 'fresh-support_bot-report.html'])
  })

  describe('two jobs of one pull request that publish one agent under their own artifact-name, and a re-run of the first', () => {
    const jobs = ['node-20', 'node-24']
    let run: FakeRun
    let rerun: ActionStepResult
    const artifactIds: Record<string, number[]> = {}
    const artifactsOfJob = (job: string) => fake.world.artifactsOf(run.id).filter((a) => a.name.startsWith(`${job}-`))
    before(async () => {
      run = fake.world.startRun({ event: 'pull_request', headBranch: 'matrix', headSha: sha('6') })
      const step = (job: string) => ({
        run,
        sha: MERGE_COMMIT,
        eventName: 'pull_request',
        payload: pullRequestEvent(fake.world, { number: 16, headSha: run.headSha, headRef: 'matrix' }),
        inputs: { ...INPUTS, scenarios: 'off-topic', 'artifact-name': job, comment: 'always', 'retention-days': '7' },
        workspace,
        job,
      })
      for (const job of jobs) {
        expectExit(await runActionStep(fake, step(job)), 0)
        artifactIds[job] = artifactsOfJob(job).map((a) => a.id)
      }
      // The first job again (a re-run of the job, attempt 2).
      rerun = await runActionStep(fake, { ...step('node-20'), runAttempt: 2 })
      expectExit(rerun, 0)
      fake.world.finishRun(run.id, 'success')
    })

    test('they keep a comment and a check each; the re-run updates its own comment and leaves the other job’s alone', () => {
      const comments = fake.world.commentsOn(16)
      assert.equal(comments.length, 2, comments.map((c) => c.body.split('\n')[0]).join('\n'))
      for (const job of jobs) {
        const mine = comments.filter((c) => c.body.startsWith(`${commentMarker('support_bot', job)}\n`))
        assert.equal(mine.length, 1, job)
        assert.match(mine[0]!.body, new RegExp(`^### ⬜ No baseline · support\\\\_bot \\(${job}\\)$`, 'm'))
        const checks = fake.world.checkRuns.filter((c) => c.headSha === run.headSha && c.name === `convy / support_bot (${job})`)
        assert.equal(checks.length, job === 'node-20' ? 2 : 1, job)
      }
      assert.equal(fake.world.checkRuns.filter((c) => c.headSha === run.headSha && c.name === 'convy / support_bot').length, 0)
    })

    test('a re-run of the job replaces its own artifacts instead of failing on their names; retention-days sets their expiry', () => {
      const second = artifactsOfJob('node-20')
      assert.deepEqual(second.map((a) => a.name).sort(), ['node-20-support_bot', 'node-20-support_bot+summary', 'node-20-support_bot-report.html'])
      assert.equal(artifactIds['node-20']!.length, 3)
      assert.ok(second.every((a) => !artifactIds['node-20']!.includes(a.id)))
      assert.deepEqual(artifactsOfJob('node-24').map((a) => a.id), artifactIds['node-24'], 'the other job’s artifacts are left alone')
      for (const artifact of second) assert.ok(Math.abs(Date.parse(artifact.expiresAt) - Date.now() - 7 * 86_400_000) < 3_600_000, artifact.expiresAt)
      assert.equal(rerun.annotations.filter((a) => a.level === 'warning').length, 0, describeStep(rerun))
    })
  })

  test('a merge queue: the group is compared with the branch it merges into, and the check goes on the commit the queue tests', async () => {
    const groupSha = sha('9')
    const headRef = `gh-readonly-queue/${fake.world.defaultBranch}/pr-12-${sha('a')}`
    const run = fake.world.startRun({ event: 'merge_group', headBranch: headRef, headSha: groupSha })
    const commentsBefore = fake.world.comments.length
    const result = await runActionStep(fake, {
      run,
      eventName: 'merge_group',
      payload: mergeGroupEvent(fake.world, { headSha: groupSha, headRef, baseSha: sha('a') }),
      inputs: INPUTS,
      workspace,
      env: { SUPPORT_BOT_VARIANT: 'regressed' },
    })
    expectExit(result, 1)
    fake.world.finishRun(run.id, 'failure')
    assert.equal(result.outputs.verdict, 'worse')
    const checks = fake.world.checkRuns.filter((c) => c.headSha === groupSha)
    assert.deepEqual(checks.map((c) => [c.name, c.conclusion]), [['convy / support_bot', 'failure']])
    assert.ok(checks[0]!.summary?.includes(`\\_${shortId(baselineRunId)}`), 'compared with the push run on main')
    assert.equal(fake.world.comments.length, commentsBefore, 'a merge group has no pull request to comment on')
    assert.ok(!result.annotations.some((a) => a.level === 'warning'), describeStep(result))
  })

  test('a token without the permissions and no artifact storage: warnings that say what to grant, and the verdict still decides', async () => {
    fake.readOnly = true
    fake.refuseUploads = true
    try {
      const run = fake.world.startRun({ event: 'pull_request', headBranch: 'topic', headSha: sha('5') })
      const result = await runActionStep(fake, {
        run,
        sha: MERGE_COMMIT,
        eventName: 'pull_request',
        payload: pullRequestEvent(fake.world, { number: 15, headSha: run.headSha, headRef: 'topic' }),
        inputs: { ...INPUTS, comment: 'always' },
        workspace,
      })
      expectExit(result, 0)
      fake.world.finishRun(run.id, 'success')
      const warnings = result.annotations.filter((a) => a.level === 'warning').map((a) => a.message)
      assert.deepEqual(warnings.map((w) => w.replace(/:.*/s, '')), ['support_bot', 'support_bot', 'support_bot', 'support_bot', 'support_bot'], warnings.join('\n'))
      assert.match(warnings[0]!, /^support_bot: the run folder was not uploaded, so it cannot be a later baseline: .*artifact storage is not available/)
      assert.match(warnings[1]!, /^support_bot: the report was not uploaded, so the comment links no report: /)
      assert.match(warnings.splice(2, 1)[0]!, /^support_bot: the run summary was not uploaded, so this run will be missing from later trends: /)
      assert.equal(warnings[2], 'support_bot: the comment on pull request #15 was not posted: Resource not accessible by integration (HTTP 403); the workflow needs `permissions: { pull-requests: write }`')
      assert.equal(warnings[3], 'support_bot: the check run was not created: Resource not accessible by integration (HTTP 403); the workflow needs `permissions: { checks: write }`')
      assert.equal(result.outputs.verdict, 'within-noise')
      assert.equal(result.outputs['report-url'], '')
      assert.match(result.summary, /Within noise/)
    } finally {
      fake.readOnly = false
      fake.refuseUploads = false
    }
  })
})
