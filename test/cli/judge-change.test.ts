import assert from 'node:assert/strict'
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { after, before, describe, test } from 'node:test'
import { HELP_SCENARIO, startJudgingModels } from '../support/judging-models.ts'
import { readAllAttempts, readManifest } from '../../src/records/journal/read-run.ts'
import { makeProject, runInProcess } from './harness.ts'

// A pull request that changes its judge model, through the real CLI against a fake model server. The
// old judge passes everything; the new one passes an answer only when it says "sure". The echo agent
// answers with the user's line, so the test sets what the agent says in each run through that line.

const convyYml = (judge: string) => `models:
  base_url: \${CONVY_BASE_URL}
  user: user-model
  judge: ${judge}
`

describe('compare --rejudge-baseline: a judge change made by the PR is settled, not excused', () => {
  let models: Awaited<ReturnType<typeof startJudgingModels>>
  let line = 'sure thing'
  before(async () => {
    models = await startJudgingModels('old-judge', () => line)
  })
  after(() => models.close())

  const judgeCalls = (model: string) => models.judgeCalls(model)

  async function runs(baselineLine: string, prLine: string): Promise<{ dir: string; base: string; pr: string }> {
    const dir = await makeProject({ 'convy.yml': convyYml('old-judge'), 'scenarios/help.yml': HELP_SCENARIO })
    const env = { CONVY_BASE_URL: models.url }
    line = baselineLine
    const first = await runInProcess(['run', 'echo', '-k', '5', '--parallel', '1'], { cwd: dir, env })
    const base = /run (echo\/\S+)/.exec(first.stdout + first.stderr)?.[1]
    assert.ok(base, first.stdout + first.stderr)
    // The pull request switches the judge model in convy.yml.
    await writeFile(join(dir, 'convy.yml'), convyYml('new-judge'))
    line = prLine
    const second = await runInProcess(['run', 'echo', '-k', '5', '--parallel', '1'], { cwd: dir, env })
    const pr = /run (echo\/\S+)/.exec(second.stdout + second.stderr)?.[1]
    assert.ok(pr, second.stdout + second.stderr)
    return { dir, base, pr }
  }
  const compare = (dir: string, ...argv: string[]) => runInProcess(['compare', ...argv, '--fail-on', 'worse'], { cwd: dir, env: { CONVY_BASE_URL: models.url } })

  test('a real break under a new judge: evidence missing without the flag, Worse with it, and the baseline judged again is a run of its own', async () => {
    const { dir, base, pr } = await runs('sure thing', 'no way')
    const unsettled = await compare(dir, base, pr)
    assert.equal(unsettled.code, 3, unsettled.stdout + unsettled.stderr)
    assert.match(unsettled.stderr, /gate \(fail-on: worse\): inconclusive \(evidence missing\): Evidence missing: Worse \(help\), but the baseline was not judged as this run was/)

    const newJudgeBefore = judgeCalls('new-judge')
    const settled = await compare(dir, base, pr, '--rejudge-baseline')
    assert.equal(settled.code, 1, settled.stdout + settled.stderr)
    assert.equal(judgeCalls('new-judge') - newJudgeBefore, 5, "the baseline's five dialogues, judged once each by the PR's judge")
    assert.match(settled.stderr, /the judge changed \(model\): echo\/\S+ judged again with the judge of echo\/\S+ \(5 dialogues\) into (echo\/\S+)/)
    assert.match(settled.stderr, /gate \(fail-on: worse\): fail: Worse than the baseline: help\./)
    const rejudgedId = /into (echo\/\S+)/.exec(settled.stderr)![1]!
    const folder = join(dir, 'results', rejudgedId)
    const manifest = await readManifest(folder)
    assert.equal(manifest.rejudgeOf, base)
    assert.equal(manifest.models.judge, 'new-judge')
    const attempts = await readAllAttempts(folder)
    assert.deepEqual(attempts.map((a) => [a.verdict, a.claims[0]!.reason]), Array.from({ length: 5 }, () => ['passed', 'new-judge: agreed']))

    // The judge is always the project's own: with convy.yml back on the old judge, the PR's run.json cannot choose it.
    await writeFile(join(dir, 'convy.yml'), convyYml('old-judge'))
    const refused = await compare(dir, base, pr, '--rejudge-baseline')
    assert.equal(refused.code, 3, `not settled: evidence missing\n${refused.stdout}${refused.stderr}`)
    assert.match(refused.stderr, /the baseline was not judged again: the pull request's run was judged by "new-judge", but convy.yml here names "old-judge"/)
  })

  test('a stricter judge on an unchanged agent: Worse without the flag, within noise once the baseline is judged alike', async () => {
    const { dir, base, pr } = await runs('no way', 'no way')
    assert.match((await compare(dir, base, pr)).stderr, /inconclusive \(evidence missing\): Evidence missing: Worse \(help\), but the baseline was not judged as this run was/)
    const settled = await compare(dir, base, pr, '--rejudge-baseline')
    assert.equal(settled.code, 0, settled.stdout + settled.stderr)
    assert.match(settled.stderr, /gate \(fail-on: worse\): pass: Within noise of the baseline\./)
    assert.match(settled.stdout, /0% → 0%/)
  })

  test('the judges alike: nothing is judged again', async () => {
    const dir = await makeProject({ 'convy.yml': convyYml('new-judge'), 'scenarios/help.yml': HELP_SCENARIO })
    const env = { CONVY_BASE_URL: models.url }
    line = 'sure'
    const ids: string[] = []
    for (let i = 0; i < 2; i++) {
      const played = await runInProcess(['run', 'echo', '-k', '2', '--parallel', '1'], { cwd: dir, env })
      ids.push(/run (echo\/\S+)/.exec(played.stdout + played.stderr)![1]!)
    }
    const calls = judgeCalls('new-judge')
    const result = await compare(dir, ids[0]!, ids[1]!, '--rejudge-baseline')
    assert.equal(result.code, 0, result.stdout + result.stderr)
    assert.match(result.stderr, /the baseline was not judged again: the two runs were judged alike; nothing to settle/)
    assert.equal(judgeCalls('new-judge'), calls)
  })
})
