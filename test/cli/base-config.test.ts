import assert from 'node:assert/strict'
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { after, before, describe, test } from 'node:test'
import { HELP_SCENARIO, startJudgingModels } from '../support/judging-models.ts'
import { readAllAttempts, readManifest } from '../../src/records/journal/read-run.ts'
import { makeProject, runInProcess } from './harness.ts'

// Issue 38, item 2, outside GitHub: `compare --base-config FILE` judges with the base branch's judge.
// A pull request breaks the echo agent and brings a lenient judge (it passes everything); main's judge
// passes an answer only when it says "sure". Through the real CLI against a fake model server.

const convyYml = (judge: string, baseUrl = '${CONVY_BASE_URL}') => `models:
  base_url: ${baseUrl}
  user: user-model
  judge: ${judge}
`

describe('compare --base-config: the base branch’s judge judges the pull request’s dialogues', () => {
  let models: Awaited<ReturnType<typeof startJudgingModels>>
  let line = 'sure thing'
  let dir: string
  let base: string
  let pr: string
  before(async () => {
    models = await startJudgingModels('lenient-judge', () => line)
    dir = await makeProject({ 'convy.yml': convyYml('main-judge'), 'main.yml': convyYml('main-judge'), 'dead.yml': convyYml('main-judge', 'http://127.0.0.1:1/v1'), 'scenarios/help.yml': HELP_SCENARIO })
    const env = { CONVY_BASE_URL: models.url }
    line = 'sure thing'
    const first = await runInProcess(['run', 'echo', '-k', '5', '--parallel', '1'], { cwd: dir, env })
    base = /run (echo\/\S+)/.exec(first.stdout + first.stderr)![1]!
    // The pull request switches to the lenient judge and breaks the agent.
    await writeFile(join(dir, 'convy.yml'), convyYml('lenient-judge'))
    line = 'no way'
    const second = await runInProcess(['run', 'echo', '-k', '5', '--parallel', '1'], { cwd: dir, env })
    pr = /run (echo\/\S+)/.exec(second.stdout + second.stderr)![1]!
  })
  after(() => models.close())

  const judgeCalls = (model: string) => models.judgeCalls(model)
  const compare = (...argv: string[]) => runInProcess(['compare', base, pr, ...argv, '--fail-on', 'worse'], { cwd: dir, env: { CONVY_BASE_URL: models.url } })

  test("run.json records where the judge was asked: host and path, nothing more", async () => {
    const port = new URL(models.url).port
    assert.equal((await readManifest(join(dir, 'results', pr))).models.judgeEndpoint, `127.0.0.1:${port}/v1`)
  })

  test("the PR's dialogues judged again with main's judge into a run of their own: the break its lenient judge hid is Worse, exit 1", async () => {
    const calls = [judgeCalls('main-judge'), judgeCalls('lenient-judge')]
    const result = await compare('--base-config', 'main.yml')
    assert.equal(result.code, 1, result.stdout + result.stderr)
    assert.deepEqual([judgeCalls('main-judge') - calls[0]!, judgeCalls('lenient-judge') - calls[1]!], [5, 0], "the PR's five dialogues by main's judge; the baseline was main's already")
    assert.match(result.stderr, /--base-config: this pull request changes the judge to "lenient-judge": the gate used the base branch \(main\.yml\)'s judge \("main-judge"\) on this pull request's dialogues/)
    assert.match(result.stderr, /--base-config: The judge changed in this pull request: its 5 recorded dialogues were judged again with the base branch \(main\.yml\)'s judge \("main-judge" at 127\.0\.0\.1:\d+\/v1\), which the gate used\. For information, this pull request's own judge \("lenient-judge" at 127\.0\.0\.1:\d+\/v1\) passed 5 of 5 attempts \(pass rate 100%\); the base branch \(main\.yml\)'s judge passes 0 of 5 attempts \(pass rate 0%\)\./)
    assert.match(result.stderr, /gate \(fail-on: worse\): fail: Worse than the baseline: help\./)
    const id = /✗ Worse: echo\/\S+ → (echo\/\S+)/.exec(result.stdout)?.[1]
    assert.ok(id && id !== pr, result.stdout)
    const manifest = await readManifest(join(dir, 'results', id))
    assert.deepEqual([manifest.rejudgeOf, manifest.models.judge, manifest.models.judgeEndpoint], [pr, 'main-judge', `127.0.0.1:${new URL(models.url).port}/v1`])
    assert.deepEqual((await readAllAttempts(join(dir, 'results', id))).map((a) => a.verdict), ['failed', 'failed', 'failed', 'failed', 'failed'])
  })

  test("main's judge at an address that answers nothing: evidence missing, exit 3, nothing judged", async () => {
    const calls = judgeCalls('main-judge')
    const result = await compare('--base-config', 'dead.yml')
    assert.equal(result.code, 3, result.stdout + result.stderr)
    assert.equal(judgeCalls('main-judge'), calls)
    assert.match(result.stderr, /gate \(fail-on: worse\): inconclusive \(evidence missing\): Not a pass: the base branch \(dead\.yml\)'s judge \("main-judge" at 127\.0\.0\.1:1\/v1\) could not judge this pull request's dialogues \(that judge cannot be reached from here/)
  })

  test('a --base-config that cannot be read: exit 2 before anything runs', async () => {
    const calls = models.requests.length
    const result = await compare('--base-config', 'missing.yml')
    assert.equal(result.code, 2, result.stdout + result.stderr)
    assert.match(result.stderr, /--base-config missing\.yml: /)
    assert.equal(models.requests.length, calls)
  })
})
