import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { mkdtemp, readFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { before, describe, test } from 'node:test'
import { unzip } from '../../src/adapters/github/unzip.ts'
import { parseRunSummary, type RunSummary } from '../../src/records/tally/run-summary.ts'
import type { FakeGitHub } from '../fakes/github-server.ts'
import { fakeGitHubForSuite } from '../fakes/github-suite.ts'
import { zipOf } from '../fakes/zip.ts'
import { assertNoInjectedMarkup } from '../report/markup-check.ts'
import { workflowRunEvent } from './events.ts'
import type { FakeRun } from '../fakes/github-world.ts'
import { describeStep, exampleWorkspace, runActionStep } from './harness.ts'
import { EXAMPLE_INPUTS, expectExit, pullRequestStep, pushBaseline, sha } from './steps.ts'

// The default branch's trend, end to end through the bundled action: each run uploads a small
// summary beside its run folder, and a pull request reads the last runs' summaries — small downloads
// only, through the bounded unzip — into a sparkline per scenario in report.html and a trend line in
// the comment for what moved. Broken or hostile summaries are said in the log and change nothing else.

const INPUTS = { ...EXAMPLE_INPUTS, history: '20', adaptive: 'false' }
const SUMMARY = 'convy-support_bot+summary'
const HOSTILE_ID = '<script>alert(1)</script>'

function summary(day: number, scenarios: Record<string, [passed: number, judged: number]>): RunSummary {
  return {
    format: 1,
    run: `support_bot/2026-10-${String(day).padStart(2, '0')}T10-00-00_${String(day).padStart(4, '0')}`,
    agent: 'support_bot',
    commit: sha('c'),
    branch: 'main',
    startedAt: `2026-10-${String(day).padStart(2, '0')}T10:00:00.000Z`,
    finishedAt: null,
    state: 'finished',
    k: 5,
    scenarios: Object.entries(scenarios).map(([id, [passed, judged]]) => ({ id, attempts: judged, passed, judged, errors: 0, noVerdicts: 0, medianAnswerSeconds: 0.01, costUsd: null })),
    medianAnswerSeconds: 0.01,
    costUsd: null,
  }
}

const zipped = (name: string, text: string | Buffer) => zipOf([{ name, data: Buffer.isBuffer(text) ? text : Buffer.from(text), deflate: true }])

describe('the default branch’s trend in the action', () => {
  let fake: FakeGitHub
  let workspace: string
  const hostile: Record<string, number> = {}
  let pullRequestRun: FakeRun

  /** A successful push run of main that uploaded this summary artifact (or none). */
  const pastRun = (artifact: Buffer | null, event = 'push'): number => {
    const run = fake.world.startRun({ event, headBranch: 'main', headSha: sha('c') })
    if (artifact) fake.world.addArtifact(run.id, SUMMARY, artifact)
    fake.world.finishRun(run.id, 'success')
    return run.id
  }

  fakeGitHubForSuite(() => fake, (started) => (fake = started))
  before(async () => {
    workspace = await exampleWorkspace()
    // Seven runs of main, oldest first: order-status always passed; unknown-order wavered.
    const unknownOrder = [5, 3, 5, 4, 3, 5, 4]
    for (let day = 1; day <= 7; day++) {
      pastRun(zipped('summary.json', JSON.stringify(summary(day, { 'order-status': [5, 5], 'unknown-order': [unknownOrder[day - 1]!, 5], 'off-topic': [5, 5] }))))
    }
    hostile.notJson = pastRun(zipped('summary.json', '{"format": 1, "run": '))
    hostile.bomb = pastRun(zipped('summary.json', Buffer.alloc(2 * 1024 * 1024, 'x')))
    hostile.huge = pastRun(zipOf([{ name: 'summary.json', data: randomBytes(400_000) }]))
    hostile.escape = pastRun(zipOf([{ name: '../../escaped.json', data: Buffer.from('{}') }]))
    hostile.script = pastRun(zipped('summary.json', JSON.stringify(summary(8, { 'order-status': [5, 5], [HOSTILE_ID]: [5, 5] }))))
    // A pull request's run on a branch called main, and a run without a summary: neither is history.
    pastRun(zipped('summary.json', JSON.stringify(summary(9, { 'order-status': [0, 5] }))), 'pull_request')
    pastRun(null)
  })

  test('a push uploads its summary beside its run; the history it reads is said in the log, the broken summaries as warnings', async () => {
    const { run, result } = await pushBaseline(fake, workspace, INPUTS)
    const artifact = fake.world.artifactsOf(run.id).find((a) => a.name === SUMMARY)
    assert.ok(artifact, describeStep(result))
    const dir = await mkdtemp(join(tmpdir(), 'convy-summary-'))
    assert.deepEqual(await unzip(fake.world.artifactBytes(artifact), dir), ['summary.json'])
    const read = parseRunSummary(await readFile(join(dir, 'summary.json')))
    assert.ok('summary' in read, JSON.stringify(read))
    assert.equal(read.summary.run, result.outputs['run-id'])
    assert.deepEqual(read.summary.scenarios.map((s) => [s.id, s.passed, s.judged]), [
      ['off-topic', 5, 5],
      ['order-status', 5, 5],
      ['password-reset', 5, 5],
      // Flaky on main (failed in 3 of its last 5 runs): 1.5 × baseline-attempts; order-status, steady in
      // 8 runs, would play 7 but never more than baseline-attempts (5); the others have too little history.
      ['unknown-order', 8, 8],
    ])
    assert.match(result.stdout, /support_bot: attempts from 8 runs of history: 1 stable at 5, 1 flaky at 8, 2 without enough history at 5/)

    const warnings = result.annotations.filter((a) => a.level === 'warning').map((a) => a.message)
    assert.equal(warnings.length, 4, describeStep(result))
    assert.match(warnings.find((w) => w.includes(`workflow run ${hostile.notJson}`)) ?? '', /trend: .*left out: it is not JSON/)
    assert.match(warnings.find((w) => w.includes(`workflow run ${hostile.huge}`)) ?? '', /left out: it is \d{6} bytes; a summary is at most/)
    assert.match(warnings.find((w) => w.includes(`workflow run ${hostile.bomb}`)) ?? '', /refused as a zip bomb/)
    assert.match(warnings.find((w) => w.includes(`workflow run ${hostile.escape}`)) ?? '', /outside its folder/)
    assert.match(result.stdout, /support_bot: trend of main from 8 of its last 13 successful run\(s\); 1 had no summary artifact/)
    assert.match(result.stdout, /trend: read in \d+ ms/)
    const hugeArtifact = fake.world.artifactsOf(hostile.huge!)[0]!
    assert.equal(fake.calls.filter((c) => c.path.includes(`/artifacts/${hugeArtifact.id}/zip`)).length, 0, 'the large artifact was never downloaded')
    assert.equal(result.outputs.verdict, 'no-baseline')
  })

  test('a pull request that broke a steady scenario: its row says the trend; report.html draws it, flaky on main said so', async () => {
    const run = fake.world.startRun({ event: 'pull_request', headBranch: 'skip-order-number', headSha: sha('b') })
    fake.world.pulls.set(31, { number: 31, headSha: run.headSha, headRef: 'skip-order-number', headRepository: fake.world.fullName, baseRef: 'main' })
    const result = await runActionStep(fake, pullRequestStep(fake, workspace, { number: 31, run, inputs: INPUTS }, { env: { SUPPORT_BOT_VARIANT: 'regressed' } }))
    expectExit(result, 1)
    fake.world.finishRun(run.id, 'failure')
    pullRequestRun = run
    const [comment] = fake.world.commentsOn(31)
    assert.ok(comment, describeStep(result))
    // Nine runs of main passed order-status every time: the seven, the one with a hostile scenario, and the push above.
    const worseRows = comment.body.split('\n').filter((line) => line.startsWith('| ') && line.includes('order-status'))
    assert.equal(worseRows.length, 1, comment.body)
    assert.match(worseRows[0]!, /_main: 9 runs at 100%, now 0\/5_ \|$/)
    assert.equal((comment.body.match(/runs at|over \d+ runs/g) ?? []).length, 1, 'only the scenario that moved has a trend line')
    assert.doesNotMatch(comment.body, /<script/)

    const report = fake.world.artifactsOf(run.id).find((a) => a.name === 'convy-support_bot-report.html')!
    const page = fake.world.artifactBytes(report).toString('utf8')
    assertNoInjectedMarkup(page)
    assert.equal((page.match(/<svg class="spark"/g) ?? []).length, 4, 'a sparkline for each of the four scenarios')
    assert.match(page, /aria-label="Pass rate on main over the last 9 runs, oldest first: 100%(, 100%){8}; this run: 0% \(0\/5\)"/)
    assert.match(page, /aria-label="Pass rate on main over the last 9 runs, oldest first: 100%, 60%, 100%, 80%, 60%, 100%, 80%, no verdict, 100%; this run: 100% \(5\/5\)"/)
    assert.equal((page.match(/<span class="tag flaky-main">flaky on main<\/span>/g) ?? []).length, 1)
    assert.match(page, /On main: 1 run at 100% \(8 runs without a verdict\)\./, 'password-reset is only in the last run of main')
  })

  test('publish mode reads the same history for the comment it posts from a finished run', async () => {
    const run = fake.world.startRun({ event: 'workflow_run', headBranch: 'main', headSha: sha('c') })
    const result = await runActionStep(fake, { run, eventName: 'workflow_run', payload: workflowRunEvent(fake.world, pullRequestRun, [31]), inputs: { ...INPUTS, mode: 'publish', comment: 'always' }, workspace })
    expectExit(result, 0)
    // The push of the first test is history now: 14 successful runs of main, 9 with a summary that reads.
    assert.match(result.stdout, /support_bot: trend of main from 9 of its last 14 successful run\(s\); 1 had no summary artifact/)
    const [comment, ...more] = fake.world.commentsOn(31)
    assert.equal(more.length, 0)
    assert.match(comment!.body, /_main: 9 runs at 100%, now 0\/5_ \|$/m)
  })

  test('attempts-by-history: false, a push plays baseline-attempts for every scenario', async () => {
    const { run, result } = await pushBaseline(fake, workspace, { ...INPUTS, 'attempts-by-history': 'false' })
    assert.doesNotMatch(result.stdout, /attempts from \d+ runs of history/)
    const artifact = fake.world.artifactsOf(run.id).find((a) => a.name === SUMMARY)
    assert.ok(artifact, describeStep(result))
    const dir = await mkdtemp(join(tmpdir(), 'convy-summary-'))
    await unzip(fake.world.artifactBytes(artifact), dir)
    const read = parseRunSummary(await readFile(join(dir, 'summary.json')))
    assert.ok('summary' in read, JSON.stringify(read))
    assert.deepEqual(read.summary.scenarios.map((s) => s.attempts), [5, 5, 5, 5])
  })

  test("a push at baseline-attempts 10 plays the history's plan: stable scenarios 7, the flaky one 15, a new one 10; the report says why", async () => {
    const { run, result } = await pushBaseline(fake, workspace, { ...INPUTS, 'baseline-attempts': '10' })
    assert.match(result.stdout, /support_bot: attempts from 10 runs of history: 2 stable at 7, 1 flaky at 15, 1 without enough history at 10/)
    const artifact = fake.world.artifactsOf(run.id).find((a) => a.name === SUMMARY)
    assert.ok(artifact, describeStep(result))
    const dir = await mkdtemp(join(tmpdir(), 'convy-summary-'))
    await unzip(fake.world.artifactBytes(artifact), dir)
    const read = parseRunSummary(await readFile(join(dir, 'summary.json')))
    assert.ok('summary' in read, JSON.stringify(read))
    // The two pushes above passed unknown-order every time; it failed in 2 of its newest 5 runs all the same.
    assert.deepEqual(read.summary.scenarios.map((s) => [s.id, s.attempts]), [
      ['off-topic', 7],
      ['order-status', 7],
      ['password-reset', 10],
      ['unknown-order', 15],
    ])
    const report = fake.world.artifactsOf(run.id).find((a) => a.name === 'convy-support_bot-report.html')!
    const page = fake.world.artifactBytes(report).toString('utf8')
    assert.match(page, /off-topic: stable in 9 runs: 7; order-status: stable in 10 runs: 7; password-reset: 10 \(2 runs of history\); unknown-order: flaky \(failed in 2 of 5 runs\): 15/)
  })

  // A token that cannot read Actions (the history said in the log, no warning): actions-cache.test.ts,
  // on the pull request whose baseline comes from the cache.
  // history: 0 (reads nothing, draws no trend): baseline-command.test.ts, over made-up runs with summaries.
})
