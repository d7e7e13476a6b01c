import assert from 'node:assert/strict'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { before, describe, test } from 'node:test'
import { runDir, shortId } from '../../src/records/journal/run-folder.ts'
import type { FakeGitHub } from '../fakes/github-server.ts'
import { fakeGitHubForSuite } from '../fakes/github-suite.ts'
import { describeStep, exampleWorkspace, runActionStep } from './harness.ts'
import { mergeGroupEvent } from './events.ts'
import { seedBaseline } from './seeded-baseline.ts'
import { EXAMPLE_INPUTS, expectExit, pullRequestStep, sha } from './steps.ts'

// The action's adaptive attempts in a matrix of shards and in a merge queue (issue 39 item 3), through
// the bundle against the fake GitHub. The example's four scenarios always pass, so each is decided at
// the attempts it plays first. Sorted by id, shard 1 of 2 owns off-topic and password-reset, shard 2
// of 2 order-status and unknown-order.

const INPUTS = { agent: EXAMPLE_INPUTS.agent, attempts: '5', scenarios: EXAMPLE_INPUTS.scenarios }
const ADAPTIVE = { ...INPUTS, adaptive: 'true', 'max-attempts': '10' }

interface RunJson {
  id: string
  settings: { k: number; shard: { index: number; total: number } | null; adaptive?: { baseline: string; maxAttempts: number } }
  adaptive?: { scenarios: Record<string, { planned: number; stopped: string | null }> }
}

describe("the action's adaptive attempts in shards and merge queues", () => {
  let fake: FakeGitHub
  let workspace: string
  fakeGitHubForSuite(() => fake, (started) => (fake = started))
  before(async () => {
    workspace = await exampleWorkspace()
  })
  const runJsonOf = async (runId: string) => JSON.parse(await readFile(join(runDir(join(workspace, 'results'), runId), 'run.json'), 'utf8')) as RunJson

  test('shards adapt their own scenarios against the baseline there when the workflow run began, a newer one notwithstanding; the merge job compares with that one', async () => {
    const { runId: baseline, run: push } = await seedBaseline(fake, workspace, { ...INPUTS, 'baseline-attempts': '10' })
    const run = fake.world.startRun({ event: 'pull_request', headBranch: 'topic-39', headSha: sha('3') })
    const shard = async (index: number) => {
      const result = await runActionStep(fake, pullRequestStep(fake, workspace, { number: 39, run, inputs: { ...ADAPTIVE, shard: `${index}/2` } }, { job: `convy-${index}` }))
      expectExit(result, 0)
      return { result, runJson: await runJsonOf(result.outputs['run-id']!) }
    }
    const one = await shard(1)
    // main moves on while shard 2 waits for a runner: a newer baseline, finished after this workflow run began.
    const { runId: newer } = await seedBaseline(fake, workspace, { ...INPUTS, 'baseline-attempts': '10' }, { headSha: sha('b') })
    assert.notEqual(newer, baseline)
    const two = await shard(2)

    for (const [index, { result, runJson }] of [one, two].entries()) {
      assert.match(result.stdout, new RegExp(`support_bot: adaptive \\(shard ${index + 1} of 2: its share of whole scenarios\\): 5 attempts per scenario, then up to 10 where the comparison with ${baseline.replace(/[/]/g, '\\/')} is undecided`), describeStep(result))
      assert.equal(runJson.settings.adaptive?.baseline, baseline, `shard ${index + 1} decided against the baseline there when the workflow run began`)
      assert.equal(result.outputs.verdict, 'no-baseline', 'a shard publishes nothing')
    }
    assert.deepEqual(Object.keys(one.runJson.adaptive!.scenarios).sort(), ['off-topic', 'password-reset'])
    assert.deepEqual(Object.keys(two.runJson.adaptive!.scenarios).sort(), ['order-status', 'unknown-order'])
    assert.equal(fake.world.commentsOn(39).length, 0, 'shards publish nothing')

    const merged = await runActionStep(fake, pullRequestStep(fake, workspace, { number: 39, run, inputs: { mode: 'merge', agent: 'support_bot', comment: 'always' } }, { job: 'merge' }))
    expectExit(merged, 0)
    assert.match(merged.stdout, new RegExp(`support_bot: baseline ${baseline.replace(/[/]/g, '\\/')} from workflow run ${push.id}, the one the shards' rounds were decided against`), describeStep(merged))
    assert.equal(merged.outputs.verdict, 'within-noise')
    const runJson = await runJsonOf(merged.outputs['run-id']!)
    assert.equal(runJson.settings.shard, null)
    assert.equal(runJson.settings.adaptive?.baseline, baseline)
    assert.deepEqual(Object.keys(runJson.adaptive!.scenarios), ['off-topic', 'order-status', 'password-reset', 'unknown-order'])
    for (const scenario of Object.values(runJson.adaptive!.scenarios)) assert.deepEqual(scenario, { planned: 5, stopped: 'decided' })
    const comment = fake.world.commentsOn(39)[0]?.body ?? ''
    assert.match(comment, /Adaptive attempts: 20 of 40 played \(spend-t3-pooled, 5 then up to 10\)/)
    const checks = fake.world.checkRuns.filter((c) => c.headSha === run.headSha)
    assert.deepEqual(checks.map((c) => [c.name, c.conclusion]), [['convy / support_bot', 'success']])
    assert.ok(checks[0]!.summary?.includes(`\\_${shortId(baseline)}`), 'the check cites the baseline the shards decided against')
    assert.ok(!checks[0]!.summary?.includes(`\\_${shortId(newer)}`), 'not the newer one')
  })

  test("a merge queue's group adapts against the branch it merges into", async () => {
    const { runId: baseline } = await seedBaseline(fake, workspace, { ...INPUTS, 'baseline-attempts': '10' }, { headSha: sha('c') })
    const groupSha = sha('9')
    const headRef = `gh-readonly-queue/${fake.world.defaultBranch}/pr-12-${sha('c')}`
    const run = fake.world.startRun({ event: 'merge_group', headBranch: headRef, headSha: groupSha })
    const result = await runActionStep(fake, { run, eventName: 'merge_group', payload: mergeGroupEvent(fake.world, { headSha: groupSha, headRef, baseSha: sha('c') }), inputs: ADAPTIVE, workspace })
    expectExit(result, 0)
    assert.match(result.stdout, new RegExp(`support_bot: adaptive: 5 attempts per scenario, then up to 10 where the comparison with ${baseline.replace(/[/]/g, '\\/')} is undecided`), describeStep(result))
    const runJson = await runJsonOf(result.outputs['run-id']!)
    assert.equal(runJson.settings.adaptive?.baseline, baseline)
    assert.equal(Object.keys(runJson.adaptive!.scenarios).length, 4)
    assert.equal(result.outputs.verdict, 'within-noise')
    const checks = fake.world.checkRuns.filter((c) => c.headSha === groupSha)
    assert.deepEqual(checks.map((c) => [c.name, c.conclusion]), [['convy / support_bot', 'success']])
  })
})
