import assert from 'node:assert/strict'
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { after, afterEach, before, describe, test } from 'node:test'
import { compareRuns } from '../../src/compare/compare-runs.ts'
import { loadRun } from '../../src/compare/load-runs.ts'
import { comparisonMarkdown } from '../../src/compare/markdown.ts'
import type { Attempt } from '../../src/journal/records.ts'
import { readAllAttempts, readManifest } from '../../src/journal/read-run.ts'
import { runDir } from '../../src/journal/run-folder.ts'
import { startFakeGitHub, type FakeGitHub } from '../fakes/github-server.ts'
import { pullRequestEvent, pushEvent } from './events.ts'
import { describeStep, exampleWorkspace, runActionStep, type ActionStep, type ActionStepResult } from './harness.ts'

const sha = (c: string) => c.repeat(40)
const expectExit = (result: ActionStepResult, code: number) => assert.equal(result.code, code, describeStep(result))

describe('the action in a matrix of shards, and with more to say than a comment holds', () => {
  let fake: FakeGitHub
  before(async () => {
    fake = await startFakeGitHub()
  })
  after(async () => {
    await fake.close()
  })
  afterEach(() => {
    assert.deepEqual(fake.violations, [])
  })

  const pushStep = (workspace: string, inputs: Record<string, string>): ActionStep => {
    const run = fake.world.startRun({ event: 'push', headBranch: 'main', headSha: sha('a') })
    return { run, eventName: 'push', payload: pushEvent(fake.world, run.headSha), inputs, workspace }
  }
  const pullRequestStep = (workspace: string, pr: number, run: ActionStep['run'], inputs: Record<string, string>, extra: Partial<ActionStep> = {}): ActionStep => ({
    run,
    sha: sha('e'),
    eventName: 'pull_request',
    payload: pullRequestEvent(fake.world, { number: pr, headSha: run.headSha, headRef: `topic-${pr}` }),
    inputs,
    workspace,
    ...extra,
  })

  test('two shards and a merge job: the merged run is exactly the unsharded run, compared and published once', async () => {
    const workspace = await exampleWorkspace()
    const inputs = { agent: 'support_bot', attempts: '3', scenarios: 'off-topic,order-status,password-reset,unknown-order' }
    const base = pushStep(workspace, inputs)
    expectExit(await runActionStep(fake, base), 0)
    fake.world.finishRun(base.run.id, 'success')

    // The same commit unsharded, in a workflow run of its own, as the yardstick.
    const whole = fake.world.startRun({ event: 'pull_request', headBranch: 'topic-21', headSha: sha('b') })
    const unsharded = await runActionStep(fake, pullRequestStep(workspace, 99, whole, { ...inputs, baseline: 'none', comment: 'never', check: 'false' }, { env: { SUPPORT_BOT_VARIANT: 'regressed' } }))
    expectExit(unsharded, 0)

    const run = fake.world.startRun({ event: 'pull_request', headBranch: 'topic-21', headSha: sha('c') })
    const writesBefore = fake.restWrites().length
    for (const index of [1, 2]) {
      const shard = await runActionStep(fake, pullRequestStep(workspace, 21, run, { ...inputs, shard: `${index}/2` }, { job: `convy-${index}`, env: { SUPPORT_BOT_VARIANT: 'regressed' } }))
      expectExit(shard, 0)
      assert.equal(shard.outputs.verdict, 'no-baseline')
    }
    assert.equal(fake.restWrites().length, writesBefore, 'shards publish nothing')
    assert.deepEqual(fake.world.artifactsOf(run.id).map((a) => a.name).sort(), ['convy-support_bot-shard-1-of-2', 'convy-support_bot-shard-2-of-2'])

    const merged = await runActionStep(fake, pullRequestStep(workspace, 21, run, { mode: 'merge', agent: 'support_bot' }, { job: 'merge' }))
    expectExit(merged, 1)
    assert.equal(merged.outputs.verdict, 'worse')
    assert.deepEqual(fake.world.artifactsOf(run.id).map((a) => a.name).sort(), [
      'convy-support_bot',
      'convy-support_bot-report.html',
      'convy-support_bot-shard-1-of-2',
      'convy-support_bot-shard-2-of-2',
    ])
    const comments = fake.world.commentsOn(21)
    assert.equal(comments.length, 1)
    assert.match(comments[0]!.body, /### 🟥 Worse · support\\_bot/)
    const checks = fake.world.checkRuns.filter((c) => c.headSha === run.headSha)
    assert.deepEqual(checks.map((c) => [c.name, c.conclusion]), [['convy / support_bot', 'failure']])

    const resultsDir = join(workspace, 'results')
    const mergedDir = runDir(resultsDir, merged.outputs['run-id']!)
    const manifest = await readManifest(mergedDir)
    assert.equal(manifest.settings.shard, null)
    assert.equal(manifest.state, 'finished')
    const comparable = (attempts: Attempt[]) =>
      attempts
        .map((a) => ({ ...a, startedAt: '', seconds: 0, turns: a.turns.map((t) => ({ ...t, seconds: 0 })) }))
        .sort((x, y) => x.scenario.localeCompare(y.scenario) || x.attempt - y.attempt)
    const expected = comparable(await readAllAttempts(runDir(resultsDir, unsharded.outputs['run-id']!)))
    assert.equal(expected.length, 12)
    assert.deepEqual(comparable(await readAllAttempts(mergedDir)), expected)
  })

  test('a comparison longer than a comment can hold is cut to fit, with the report linked; the check and the job summary fit too', async () => {
    const workspace = await manyScenarios(1200)
    const inputs = { agent: 'echo', 'artifact-name': 'big', comment: 'always' }
    const base = pushStep(workspace, inputs)
    const baseline = await runActionStep(fake, base)
    expectExit(baseline, 0)
    fake.world.finishRun(base.run.id, 'success')

    const run = fake.world.startRun({ event: 'pull_request', headBranch: 'topic-31', headSha: sha('d') })
    const result = await runActionStep(fake, pullRequestStep(workspace, 31, run, inputs))
    expectExit(result, 0)

    const resultsDir = join(workspace, 'results')
    const [before, after] = await Promise.all([loadRun(runDir(resultsDir, baseline.outputs['run-id']!)), loadRun(runDir(resultsDir, result.outputs['run-id']!))])
    const uncut = comparisonMarkdown(compareRuns(before, after, { now: new Date() }), { maxLength: Number.MAX_SAFE_INTEGER })
    assert.ok(uncut.length > 65_536, `the whole comparison is ${uncut.length} characters`)

    const [comment] = fake.world.commentsOn(31)
    assert.ok(comment && comment.body.length <= 65_536)
    assert.match(comment.body, /…and [\d,]+ more scenarios, listed in the \[full report\]\(https:\/\/github\.com\/acme\/support-bot\/actions\/runs\/\d+\/artifacts\/\d+\)\./)
    const check = fake.world.checkRuns.find((c) => c.headSha === run.headSha)
    assert.ok(check?.summary && check.summary.length <= 65_535)
    assert.ok(Buffer.byteLength(result.summary) <= 1024 * 1024)
    assert.equal(result.summary.trim(), comment.body.trim())
  })
})

/** A project of n scripted scenarios with long names, against the built-in echo agent. */
async function manyScenarios(n: number): Promise<string> {
  const workspace = await exampleWorkspace()
  await writeFile(join(workspace, 'convy.yml'), 'agents: {}\n')
  const dir = join(workspace, 'scenarios')
  await mkdir(dir, { recursive: true })
  const existing = await readFile(join(dir, 'refund.yml'), 'utf8').catch(() => '')
  assert.ok(existing, 'the example scenarios are replaced')
  await Promise.all(
    ['off-topic', 'order-status', 'password-reset', 'refund', 'unknown-order'].map((id) => writeFile(join(dir, `${id}.yml`), `script: [hello]\nchecks:\n  - contains: hello\n`)),
  )
  await Promise.all(
    Array.from({ length: n }, (_, i) =>
      writeFile(join(dir, `s${String(i).padStart(4, '0')}.yml`), `id: customer-asks-about-something-rather-specific-${String(i).padStart(4, '0')}\nscript: [hello]\nchecks:\n  - contains: hello\n`),
    ),
  )
  return workspace
}
