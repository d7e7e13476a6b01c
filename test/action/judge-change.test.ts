import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { HELP_SCENARIO, startJudgingModels } from '../support/judging-models.ts'
import type { FakeGitHub } from '../fakes/github-server.ts'
import { fakeGitHubForSuite } from '../fakes/github-suite.ts'
import { modelsYml } from '../support/convy-yml.ts'
import { makeProject } from '../support/project.ts'
import { readdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { DEFAULT_ARTIFACT_NAME, runArtifactName, summaryArtifactName } from '../../src/adapters/github/artifact-names.ts'
import { runDir } from '../../src/records/journal/run-folder.ts'
import { readTally } from '../../src/records/tally/read-tally.ts'
import { SUMMARY_FILE, summarizeRun, summaryJson } from '../../src/records/tally/run-summary.ts'
import { zipOf } from '../fakes/zip.ts'
import { workflowRunEvent } from './events.ts'
import { describeStep, runActionStep, runBundledCli } from './harness.ts'
import { seedBaseline } from './seeded-baseline.ts'
import { expectExit, pullRequestStep, sha } from './steps.ts'

// A pull request that breaks the agent and, in the same change, switches the judge model, through the
// bundle against the fake GitHub and a fake model server. The old judge passes everything; the new one
// passes an answer only when it says "sure". The echo agent says what the user's line says.

const convyYml = (judge: string) => modelsYml({ urlVariable: 'MODELS_URL', judge })
const INPUTS = { agent: 'echo', attempts: '5', parallel: '1', cache: 'off' }

const checkout = (judge: string) => makeProject({ 'convy.yml': convyYml(judge), 'scenarios/help.yml': HELP_SCENARIO })

describe('a judge change made by the pull request, in the action', () => {
  let fake: FakeGitHub
  let models: Awaited<ReturnType<typeof startJudgingModels>>
  let line = 'sure thing'
  fakeGitHubForSuite(() => fake, (started) => (fake = started))
  before(async () => {
    models = await startJudgingModels('old-judge', () => line)
  })
  after(async () => {
    await models.close()
  })
  const judgeCalls = (model: string) => models.judgeCalls(model)

  test("the baseline's dialogues are judged again with the PR's judge, and the Worse stands: the step fails", async () => {
    line = 'sure thing'
    // main's run with the old judge, made by the bundled CLI (the action's own push is in pull-requests.test.ts).
    await seedBaseline(fake, await checkout('old-judge'), INPUTS, { env: { MODELS_URL: models.url } })

    line = 'no way'
    const newJudge = judgeCalls('new-judge')
    const run = fake.world.startRun({ event: 'pull_request', headBranch: 'new-judge', headSha: sha('c') })
    const result = await runActionStep(fake, { ...pullRequestStep(fake, await checkout('new-judge'), { number: 51, run, inputs: INPUTS }), env: { MODELS_URL: models.url } })
    expectExit(result, 1)
    assert.equal(result.outputs.verdict, 'worse', describeStep(result))
    assert.equal(judgeCalls('new-judge') - newJudge, 5 + 5, "the PR's five attempts, then the baseline's five dialogues, by the PR's judge")
    const [comment] = fake.world.commentsOn(51)
    assert.ok(comment, describeStep(result))
    // The base commit serves this convy.yml (new-judge): the base's judge moved since the baseline, which is judged by it too (settle-judge.ts).
    assert.match(comment.body, /^<!-- convy-ci:echo -->\n\n### 🟥 Worse · echo\n\n> ℹ️ The baseline was judged by "old-judge", not the base branch \\\(main\\\)'s judge now: its 5 recorded dialogues were judged again with "new-judge" at 127\.0\.0\.1:\d+\/v1\.\n/)
    assert.doesNotMatch(comment.body, /not attributable to the agent/)
    assert.deepEqual(fake.world.checkRuns.filter((c) => c.headSha === run.headSha).map((c) => c.conclusion), ['failure'])
  })

  /**
   * A fork's pull request run, played by the bundled CLI as its own workflow would (the new judge),
   * its run.json then edited as the fork pleases, uploaded as that workflow's artifacts.
   */
  async function forkRun(number: number, headSha: string, edit: (manifest: { settings: Record<string, unknown>; prompts?: Record<string, unknown> }) => void) {
    const workspace = await checkout('new-judge')
    const event = join(workspace, 'event.json')
    await writeFile(event, JSON.stringify({ pull_request: { number, head: { sha: headSha, ref: 'main' } } }))
    const played = await runBundledCli(['run', 'echo', '-k', '5', '--parallel', '1', '--cache', 'off'], { MODELS_URL: models.url, GITHUB_ACTIONS: 'true', GITHUB_EVENT_PATH: event }, workspace)
    assert.ok([0, 1].includes(played.code), played.stdout + played.stderr)
    const dir = runDir(join(workspace, 'results'), /^run (\S+)$/m.exec(played.stdout)![1]!)
    const manifest = JSON.parse(await readFile(join(dir, 'run.json'), 'utf8'))
    edit(manifest)
    await writeFile(join(dir, 'run.json'), JSON.stringify(manifest))
    const files = (await readdir(dir, { withFileTypes: true })).filter((e) => e.isFile()).map((e) => e.name)
    const run = fake.world.startRun({ event: 'pull_request', headBranch: 'main', headSha, headRepository: 'mallory/support-bot' })
    fake.world.addArtifact(run.id, runArtifactName(DEFAULT_ARTIFACT_NAME, 'echo'), zipOf(await Promise.all(files.map(async (name) => ({ name, data: await readFile(join(dir, name)), deflate: true })))))
    fake.world.addArtifact(run.id, summaryArtifactName(DEFAULT_ARTIFACT_NAME, 'echo'), zipOf([{ name: SUMMARY_FILE, data: Buffer.from(summaryJson(summarizeRun(await readTally(dir)))), deflate: true }]))
    fake.world.finishRun(run.id, 'success')
    fake.world.pulls.set(number, { number, headSha, headRef: 'main', headRepository: 'mallory/support-bot', baseRef: 'main' })
    return run
  }

  // mode: publish runs on the default branch, whose convy.yml now names the new judge (1 sample, review
  // on by default). Its key pays for that and nothing more, whatever the fork's run.json says.
  async function publish(run: Awaited<ReturnType<typeof forkRun>>) {
    const trigger = fake.world.startRun({ event: 'workflow_run', headBranch: 'main', headSha: sha('a') })
    const before = judgeCalls('new-judge')
    const result = await runActionStep(fake, {
      run: trigger,
      eventName: 'workflow_run',
      payload: workflowRunEvent(fake.world, run),
      inputs: { mode: 'publish', agent: 'echo', comment: 'always' },
      workspace: await checkout('new-judge'),
      env: { MODELS_URL: models.url },
    })
    return { result, judged: judgeCalls('new-judge') - before }
  }

  test("publish mode: the baseline is judged again with the project's settings, one call per recorded dialogue", async () => {
    line = 'no way'
    const run = await forkRun(61, sha('6'), () => undefined)
    const { result, judged } = await publish(run)
    expectExit(result, 0)
    assert.equal(judged, 5, `the baseline's five dialogues, once each\n${describeStep(result)}`)
    assert.deepEqual(result.leftInTemp, [], "nothing of the fork's artifact or main's baseline is left in RUNNER_TEMP")
    assert.match(fake.world.commentsOn(61)[0]?.body ?? '', /judged again with this run's judge \\\(new-judge, 1 sample each/)
  })

  test("publish mode: a fork's run.json asking 15 judge samples and no review spends nothing: compared as it is", async () => {
    line = 'no way'
    const run = await forkRun(62, sha('7'), (manifest) => {
      manifest.settings.judgeSamples = 15
      if (manifest.prompts) manifest.prompts.judgeSamples = 15
    })
    const { result, judged } = await publish(run)
    assert.equal(judged, 0, describeStep(result))
    assert.deepEqual(result.leftInTemp, [])
    assert.match(describeStep(result), /asked for 15 judge samples per attempt, and only this project's own settings \(1 per attempt\) are paid for here/)
    const edited = await forkRun(63, sha('8'), (manifest) => {
      manifest.settings.review = false
    })
    const unreviewed = await publish(edited)
    assert.equal(unreviewed.judged, 0, describeStep(unreviewed.result))
    assert.match(describeStep(unreviewed.result), /did not review failed attempts for user errors, and this project's convy.yml does/)
  })
})
