import assert from 'node:assert/strict'
import { join } from 'node:path'
import { describe, test } from 'node:test'
import type { Attempt } from '../../src/records/journal/records.ts'
import { readAllAttempts, readManifest } from '../../src/records/journal/read-run.ts'
import { runDir } from '../../src/records/journal/run-folder.ts'
import type { FakeGitHub } from '../fakes/github-server.ts'
import { fakeGitHubForSuite } from '../fakes/github-suite.ts'
import { exampleWorkspace, runActionStep, runBundledCli } from './harness.ts'
import { seedBaseline } from './seeded-baseline.ts'
import { expectExit, pullRequestStep, sha } from './steps.ts'

// A matrix of shards and a merge job, with the bundled action, against the fake GitHub.

describe('the action in a matrix of shards', () => {
  let fake: FakeGitHub
  fakeGitHubForSuite(() => fake, (started) => (fake = started))

  test('two shards and a merge job: the merged run is exactly the unsharded run, compared and published once', async () => {
    const workspace = await exampleWorkspace()
    // k = 5: at k = 3 no single scenario can register, and the comparison says it cannot tell.
    // Fixed attempts: the shards' union is the unsharded run, attempt for attempt (adaptive shards: adaptive-shards.test.ts).
    const inputs = { agent: 'support_bot', attempts: '5', scenarios: 'off-topic,order-status,password-reset,unknown-order', adaptive: 'false' }
    // main's run, made by the bundled CLI (the action's own push is in pull-requests.test.ts).
    await seedBaseline(fake, workspace, inputs)

    // The same commit unsharded, as the yardstick: the same run played whole by the bundled CLI, which
    // plays it through the same pipeline as the action (runAgents), without starting the action's bundle.
    const unsharded = await runBundledCli(['run', inputs.agent, '-k', inputs.attempts, ...inputs.scenarios.split(',').flatMap((id) => ['--scenarios', id])], { SUPPORT_BOT_VARIANT: 'regressed' }, workspace)
    assert.equal(unsharded.code, 0, unsharded.stderr)
    const unshardedId = /^run (support_bot\/\S+)$/m.exec(unsharded.stdout)![1]!

    const run = fake.world.startRun({ event: 'pull_request', headBranch: 'topic-21', headSha: sha('c') })
    const writesBefore = fake.restWrites().length
    for (const index of [1, 2]) {
      const shard = await runActionStep(fake, pullRequestStep(fake, workspace, { number: 21, run, inputs: { ...inputs, shard: `${index}/2` } }, { job: `convy-${index}`, env: { SUPPORT_BOT_VARIANT: 'regressed' } }))
      expectExit(shard, 0)
      assert.equal(shard.outputs.verdict, 'no-baseline')
    }
    assert.equal(fake.restWrites().length, writesBefore, 'shards publish nothing')
    assert.deepEqual(fake.world.artifactsOf(run.id).map((a) => a.name).sort(), ['convy-support_bot-shard-1-of-2', 'convy-support_bot-shard-2-of-2'])

    const merged = await runActionStep(fake, pullRequestStep(fake, workspace, { number: 21, run, inputs: { mode: 'merge', agent: 'support_bot' } }, { job: 'merge' }))
    expectExit(merged, 1)
    assert.equal(merged.outputs.verdict, 'worse')
    assert.deepEqual(fake.world.artifactsOf(run.id).map((a) => a.name).sort(), [
      'convy-support_bot',
      'convy-support_bot+summary',
      'convy-support_bot-report.html',
      'convy-support_bot-shard-1-of-2',
      'convy-support_bot-shard-2-of-2',
    ])
    const comments = fake.world.commentsOn(21)
    assert.equal(comments.length, 1)
    assert.match(comments[0]!.body, /### 🟥 Worse · support\\_bot/)
    // The merge job reads the default branch's trend too: the baseline push is its history.
    assert.match(merged.stdout, /support_bot: trend of main from \d+ of its last \d+ successful run\(s\)/)
    assert.match(comments[0]!.body, /_main: \d+ runs? at 100%, now \d\/5_/)
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
    const expected = comparable(await readAllAttempts(runDir(resultsDir, unshardedId)))
    assert.equal(expected.length, 20)
    assert.deepEqual(comparable(await readAllAttempts(mergedDir)), expected)
  })
})
