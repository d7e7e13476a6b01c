import assert from 'node:assert/strict'
import { join } from 'node:path'
import { after, before, describe, test } from 'node:test'
import { readAllAttempts } from '../../src/records/journal/read-run.ts'
import { runDir } from '../../src/records/journal/run-folder.ts'
import { judgeByRule, startFakeModelServer, type FakeModelServer } from '../../src/entry/testing/fake-model-server.ts'
import type { FakeGitHub } from '../fakes/github-server.ts'
import { fakeGitHubForSuite } from '../fakes/github-suite.ts'
import { describeStep, runActionStep, type ActionStepResult } from './harness.ts'
import { expectExit, pullRequestStep, pushStep, sha } from './steps.ts'
import { modelsYml } from '../support/convy-yml.ts'
import { makeProject } from '../support/project.ts'

// The Actions cache, end to end: the bundled action and the real @actions/cache client against the
// fake cache service. Every step gets a fresh checkout, as a runner does, so whatever a step finds
// of an earlier one came through the cache.

const CONVY_YML = modelsYml({ urlVariable: 'MODELS_URL', prices: { 'user-model': [1, 2], 'judge-model': [1, 2] } })
const SCENARIO = 'user: Say hello and ask how the agent is.\njudge: [The agent repeats the greeting]\n'
// attempts: 3 is too little to tell (k = 4 would): the verdict output says inconclusive, and the check is neutral.
// baseline-attempts as attempts: the pushes here play what the counts below were written for.
const INPUTS = { agent: 'echo', attempts: '3', 'baseline-attempts': '3' }

/** A fresh checkout, as every job of a runner has. */
const checkout = () => makeProject({ 'convy.yml': CONVY_YML, 'scenarios/hello.yml': SCENARIO })

describe('the action with the Actions cache', () => {
  let fake: FakeGitHub
  let models: FakeModelServer
  /** Chat completions only: the gateway check before a run (GET /models) is not a model call. */
  const chatCalls = () => models.requests.filter((r) => r.kind !== 'other').length
  let lines = 0

  fakeGitHubForSuite(() => fake, (started) => (fake = started))
  before(async () => {
    // A new line on every call, as a sampling model gives: answers from the cache are recognisable.
    models = await startFakeModelServer({ user: () => `hello number ${++lines} ###STOP###`, judge: judgeByRule(() => true) })
  })
  after(async () => {
    await models.close()
  })

  const env = () => ({ MODELS_URL: models.url })
  const cacheCalls = (method: string) => fake.calls.filter((c) => c.kind === 'twirp' && c.operation === method)
  const warnings = (result: ActionStepResult) => result.annotations.filter((a) => a.level !== 'notice').map((a) => a.message)
  const cachedCalls = async (workspace: string, runId: string) =>
    (await readAllAttempts(runDir(join(workspace, 'results'), runId))).map((a) => (a.models.user?.cachedCalls ?? 0) + (a.models.judge?.cachedCalls ?? 0))

  let firstLines: string[] = []
  test('a push to the default branch calls the models and saves their answers and its run to the cache', async () => {
    const workspace = await checkout()
    const step = pushStep(fake, workspace, INPUTS)
    const result = await runActionStep(fake, { ...step, env: env() })
    expectExit(result, 0)
    fake.world.finishRun(step.run.id, 'success')
    assert.deepEqual(warnings(result), [], describeStep(result))
    assert.equal(chatCalls(), 6, 'a user line and a judgement for each of 3 attempts')
    const attempts = await readAllAttempts(runDir(join(workspace, 'results'), result.outputs['run-id']!))
    firstLines = attempts.map((a) => a.turns.find((t) => t.role === 'user')?.text ?? '').sort()
    assert.equal(new Set(firstLines).size, 3, 'the attempts stay independent under the cache')
    assert.deepEqual(
      fake.world.cacheEntries.map((e) => [e.key, e.scope, e.finalized]),
      [
        [`convy-cache-echo-main-${step.run.id}-1`, 'refs/heads/main', true],
        [`convy-baseline-echo-main-${step.run.id}-1`, 'refs/heads/main', true],
      ],
    )
  })

  test('the next push restores the cache and calls no model at all', async () => {
    const workspace = await checkout()
    const step = pushStep(fake, workspace, INPUTS, sha('b'))
    const before = chatCalls()
    const result = await runActionStep(fake, { ...step, env: env() })
    expectExit(result, 0)
    fake.world.finishRun(step.run.id, 'success')
    assert.deepEqual(warnings(result), [], describeStep(result))
    assert.equal(chatCalls(), before, 'a model was called')
    assert.deepEqual(await cachedCalls(workspace, result.outputs['run-id']!), [2, 2, 2])
    const attempts = await readAllAttempts(runDir(join(workspace, 'results'), result.outputs['run-id']!))
    assert.deepEqual(attempts.map((a) => a.turns.find((t) => t.role === 'user')?.text ?? '').sort(), firstLines)
    assert.match(result.stdout, /model cache restored from convy-cache-echo-main-/)
  })

  test('a pull request whose token cannot read artifacts finds its baseline in the cache, and says so and how old it is; the trend it cannot read is said in the log, not warned', async () => {
    fake.denyActionsRead = true
    try {
      const workspace = await checkout()
      const run = fake.world.startRun({ event: 'pull_request', headBranch: 'topic', headSha: sha('c') })
      const before = chatCalls()
      const result = await runActionStep(fake, { ...pullRequestStep(fake, workspace, { number: 7, run, inputs: { ...INPUTS, comment: 'always' } }), env: env() })
      expectExit(result, 0)
      fake.world.finishRun(run.id, 'success')
      assert.equal(chatCalls(), before, 'the branch starts from the default branch’s cache')
      assert.equal(result.outputs.verdict, 'inconclusive', describeStep(result))
      const newestBaseline = fake.world.cacheEntries.filter((e) => e.key.startsWith('convy-baseline-echo-main-')).at(-1)!
      const source = new RegExp(`Baseline echo/\\S+: from the Actions cache \\(${newestBaseline.key}\\), as this workflow's token cannot read artifacts, made \\d+ minutes? ago\\.`)
      assert.match(result.summary, source)
      assert.match(fake.world.commentsOn(7)[0]?.body ?? '', source)
      // Both runs answered from the cache: nothing spent on either side, which is no news for the
      // comment's tiles (they show a cost only when it changed).
      assert.doesNotMatch(result.summary, /\| Cost \|/)
      assert.match(result.stdout, /echo: the baseline artifact could not be fetched: Resource not accessible by integration \(HTTP 403\).*; baseline echo\/\S+ from the Actions cache/)
      assert.deepEqual(warnings(result), [], 'a baseline found is no cause for a warning')
      // The default branch's history (history: 10 by default) is read through the same API.
      assert.match(result.stdout, /^echo: the default branch's history could not be read, so no trend is shown: .*\(HTTP 403\); the workflow needs `permissions: \{ actions: read \}`$/m)
      // A pull request saves into its own scope, which the default branch never reads.
      const saved = fake.world.cacheEntries.filter((e) => e.key.includes(`-${run.id}-`))
      assert.deepEqual(saved.map((e) => [e.key, e.scope]), [[`convy-cache-echo-topic-${run.id}-1`, 'refs/pull/topic/merge']])
    } finally {
      fake.denyActionsRead = false
    }
  })

  test('a pull request whose baseline artifact has expired compares with the cached run instead', async () => {
    for (const artifact of fake.world.artifacts.values()) artifact.expired = true
    const workspace = await checkout()
    const run = fake.world.startRun({ event: 'pull_request', headBranch: 'expiry', headSha: sha('9') })
    const result = await runActionStep(fake, { ...pullRequestStep(fake, workspace, { number: 9, run, inputs: INPUTS }), env: env() })
    expectExit(result, 0)
    fake.world.finishRun(run.id, 'success')
    assert.equal(result.outputs.verdict, 'inconclusive', describeStep(result))
    assert.match(result.summary, /from the Actions cache \(convy-baseline-echo-main-\d+-1\), as its artifact has expired, made \d+ minutes? ago\./)
    assert.deepEqual(warnings(result), [])
  })

  test('a pull request from a fork restores the cache read-only and saves nothing, without a warning', async () => {
    fake.readOnly = true
    try {
      const workspace = await checkout()
      const run = fake.world.startRun({ event: 'pull_request', headBranch: 'main', headSha: sha('d'), headRepository: 'mallory/support-bot' })
      const entriesBefore = fake.world.cacheEntries.length
      const createsBefore = cacheCalls('CreateCacheEntry').length
      const before = chatCalls()
      const result = await runActionStep(fake, { ...pullRequestStep(fake, workspace, { number: 8, run, inputs: INPUTS, fork: 'mallory/support-bot' }, { actor: 'mallory' }), env: env() })
      expectExit(result, 0)
      fake.world.finishRun(run.id, 'success')
      assert.equal(chatCalls(), before)
      assert.equal(cacheCalls('CreateCacheEntry').length, createsBefore, 'no save was even tried')
      assert.equal(fake.world.cacheEntries.length, entriesBefore)
      assert.deepEqual(warnings(result), [], describeStep(result))
      assert.match(result.stdout, /the model cache is not saved: a pull request from a fork may only read the Actions cache/)
      assert.equal(result.outputs.verdict, 'inconclusive')
    } finally {
      fake.readOnly = false
    }
  })

  test('cache: off neither restores nor saves, and the models are called again', async () => {
    const workspace = await checkout()
    const step = pushStep(fake, workspace, { ...INPUTS, cache: 'off' }, sha('e'))
    const downloadsBefore = cacheCalls('GetCacheEntryDownloadURL').length
    const before = chatCalls()
    const result = await runActionStep(fake, { ...step, env: env() })
    expectExit(result, 0)
    fake.world.finishRun(step.run.id, 'success')
    assert.equal(chatCalls(), before + 6)
    assert.equal(cacheCalls('GetCacheEntryDownloadURL').length, downloadsBefore)
    assert.deepEqual(fake.world.cacheEntries.filter((e) => e.key.startsWith('convy-cache-') && e.key.includes(`-${step.run.id}-`)), [])
  })

  test('budget-usd: the run stops once its budget is spent, says what it played and spent, and fails the step', async () => {
    const workspace = await checkout()
    const step = pushStep(fake, workspace, { ...INPUTS, cache: 'off', 'budget-usd': '0.000001' }, sha('f'))
    const before = chatCalls()
    const result = await runActionStep(fake, { ...step, env: env() })
    expectExit(result, 1)
    fake.world.finishRun(step.run.id, 'failure')
    assert.equal(chatCalls(), before + 2, 'the first attempt, alone, and no other')
    const failure = result.annotations.find((a) => a.level === 'error')?.message ?? ''
    assert.match(failure, /^echo: the run stopped at its budget of \$0\.000001 after 1 attempt, having spent \$0\.0\d+$/, describeStep(result))
    assert.match(result.summary, /⚠️ the run stopped at its budget .*; a larger budget-usd plays the rest\./)
    assert.ok(!fake.world.cacheEntries.some((e) => e.key.includes(`-${step.run.id}-`)), 'a run stopped short is no baseline')
  })
})
