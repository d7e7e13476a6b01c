import assert from 'node:assert/strict'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { before, describe, test } from 'node:test'
import { runDir } from '../../src/records/journal/run-folder.ts'
import type { FakeGitHub } from '../fakes/github-server.ts'
import { fakeGitHubForSuite } from '../fakes/github-suite.ts'
import { describeStep, exampleWorkspace, runActionStep } from './harness.ts'
import { seedBaseline } from './seeded-baseline.ts'
import { EXAMPLE_INPUTS, expectExit, pullRequestStep, pushStep, sha } from './steps.ts'

// The action's `adaptive` input (issue 39), through the bundle against the fake GitHub: on a pull
// request each agent's baseline is fetched before its run and its rounds compare with it. The
// example's four scenarios always pass, so each is decided at the attempts it plays first.

const INPUTS = { agent: EXAMPLE_INPUTS.agent, attempts: '5', scenarios: EXAMPLE_INPUTS.scenarios }
// A comparison within noise is commented on only when asked.
const COMMENT = { comment: 'always' }
const ADAPTIVE = { ...INPUTS, adaptive: 'true', 'max-attempts': '10' }

interface RunJson {
  settings: { k: number; adaptive?: { baseline: string; maxAttempts: number } }
  adaptive?: { scenarios: Record<string, { planned: number; stopped: string | null }> }
}

describe("the action's adaptive attempts on pull requests", () => {
  let fake: FakeGitHub
  let workspace: string
  fakeGitHubForSuite(() => fake, (started) => (fake = started))
  before(async () => {
    workspace = await exampleWorkspace()
  })

  async function pullRequest(number: number, head: string, inputs: Record<string, string>) {
    const run = fake.world.startRun({ event: 'pull_request', headBranch: `pr-${number}`, headSha: sha(head) })
    fake.world.pulls.set(number, { number, headSha: run.headSha, headRef: run.headBranch, headRepository: fake.world.fullName, baseRef: 'main' })
    const result = await runActionStep(fake, pullRequestStep(fake, workspace, { number, run, inputs }))
    const runJson = JSON.parse(await readFile(join(runDir(join(workspace, 'results'), result.outputs['run-id']!), 'run.json'), 'utf8')) as RunJson
    const comment = fake.world.commentsOn(number)[0]?.body ?? ''
    return { result, runJson, comment }
  }

  test('with no baseline to fetch, an adaptive pull request plays its attempts and the log says why', async () => {
    const { result, runJson } = await pullRequest(61, '1', ADAPTIVE)
    expectExit(result, 0)
    assert.match(result.stdout, /support_bot: adaptive: no baseline to decide rounds against \([^)]*\), so each scenario plays 5 attempts/, describeStep(result))
    assert.equal(runJson.settings.adaptive, undefined)
    assert.equal(runJson.adaptive, undefined)
    assert.equal(result.outputs.verdict, 'no-baseline')
  })

  test('with a baseline artifact, stable scenarios stop after their first attempts, and the comment says how many were played', async () => {
    const { runId: baseline, run: push } = await seedBaseline(fake, workspace, { ...INPUTS, 'baseline-attempts': '10' })
    const folder = fake.world.artifactsOf(push.id).find((a) => a.name === 'convy-support_bot')!
    const { result, runJson, comment } = await pullRequest(62, '2', { ...ADAPTIVE, ...COMMENT })
    expectExit(result, 0)
    assert.match(result.stdout, new RegExp(`support_bot: adaptive: 5 attempts per scenario, then up to 10 where the comparison with ${baseline.replace(/[/]/g, '\\/')} is undecided`), describeStep(result))
    assert.equal(runJson.settings.adaptive?.baseline, baseline)
    assert.equal(runJson.settings.adaptive?.maxAttempts, 10)
    const scenarios = Object.values(runJson.adaptive?.scenarios ?? {})
    assert.equal(scenarios.length, 4)
    for (const scenario of scenarios) {
      assert.equal(scenario.planned, 5, 'decided after its first attempts, fewer than max-attempts')
      assert.notEqual(scenario.stopped, null)
    }
    assert.equal(result.outputs.verdict, 'within-noise')
    assert.match(comment, /Adaptive attempts: 20 of 40 played \(spend-t3-pooled, 5 then up to 10\)/)
    // The baseline's run folder was downloaded once, before the run, and compared with as it was.
    assert.equal(fake.calls.filter((c) => c.operation === 'actions/download-artifact' && c.path.includes(`/artifacts/${folder.id}/`)).length, 1, describeStep(result))
  })

  test('by default (neither adaptive nor attempts set), a pull request with a baseline plays 3 attempts per scenario first', async () => {
    const { runId: baseline } = await seedBaseline(fake, workspace, { ...INPUTS, 'baseline-attempts': '10' })
    const { result, runJson, comment } = await pullRequest(64, '4', { agent: INPUTS.agent, scenarios: INPUTS.scenarios, ...COMMENT })
    expectExit(result, 0)
    assert.match(result.stdout, new RegExp(`support_bot: adaptive: 3 attempts per scenario, then up to 10 where the comparison with ${baseline.replace(/[/]/g, '\\/')} is undecided`), describeStep(result))
    assert.equal(runJson.settings.k, 3)
    assert.deepEqual(Object.values(runJson.adaptive?.scenarios ?? {}).map((s) => s.planned), [3, 3, 3, 3])
    assert.equal(result.outputs.verdict, 'within-noise')
    assert.match(comment, /Adaptive attempts: 12 of 40 played \(spend-t3-pooled, 3 then up to 10\)/)
  })

  test('with adaptive false, a pull request plays its attempts as before', async () => {
    const { result, runJson, comment } = await pullRequest(63, '3', { ...INPUTS, ...COMMENT, adaptive: 'false' })
    expectExit(result, 0)
    assert.doesNotMatch(result.stdout, /adaptive/)
    assert.equal(runJson.settings.k, 5)
    assert.equal(runJson.settings.adaptive, undefined)
    assert.equal(runJson.adaptive, undefined)
    assert.equal(result.outputs.verdict, 'within-noise')
    assert.match(comment, /Within noise/, 'the comment is there')
    assert.doesNotMatch(comment, /Adaptive attempts/)
  })

  test('on a push to the default branch, adaptive changes nothing: the baseline plays baseline-attempts, and the log says so', async () => {
    const step = pushStep(fake, workspace, { ...ADAPTIVE, 'baseline-attempts': '10' }, sha('4'))
    const result = await runActionStep(fake, step)
    expectExit(result, 0)
    fake.world.finishRun(step.run.id, 'success')
    assert.match(result.stdout, /adaptive: this is neither a pull request nor a merge queue's group, so each scenario plays 10 attempts/, describeStep(result))
    const runJson = JSON.parse(await readFile(join(runDir(join(workspace, 'results'), result.outputs['run-id']!), 'run.json'), 'utf8')) as RunJson
    assert.equal(runJson.settings.k, 10)
    assert.equal(runJson.settings.adaptive, undefined)
  })
})
