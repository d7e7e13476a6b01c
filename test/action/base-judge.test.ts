import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { HELP_SCENARIO, startJudgingModels } from '../support/judging-models.ts'
import type { FakeGitHub } from '../fakes/github-server.ts'
import { fakeGitHubForSuite } from '../fakes/github-suite.ts'
import { modelsYml } from '../support/convy-yml.ts'
import { makeProject } from '../support/project.ts'
import { describeStep, runActionStep, workflowFile } from './harness.ts'
import { seedBaseline } from './seeded-baseline.ts'
import { expectExit, pullRequestStep, sha } from './steps.ts'

// Issue 38, item 2: a pull request that breaks the agent and, in the same change, brings its own
// lenient judge, through the bundle against the fake GitHub (serving the base commit's convy.yml and
// workflow file) and a fake model server. main's judge passes an answer only when it says "sure"; the
// pull request's passes everything. The echo agent says what the user's line says.

const convyYml = (judge: string, urlVariable = 'MODELS_URL') => modelsYml({ urlVariable, judge })
const INPUTS = { agent: 'echo', attempts: '5', parallel: '1', cache: 'off' }
const BASE_SHA = 'b'.repeat(40)

const checkout = (judge: string) => makeProject({ 'convy.yml': convyYml(judge), 'scenarios/help.yml': HELP_SCENARIO })
/** The comment's text as a reader sees it: markdown escapes removed. */
const plain = (markdown: string) => markdown.replace(/\\([\\`*_{}[\]()#+\-.!|<>$~])/g, '$1').replace(/\u200d/g, '')

describe('a judge change made by the pull request, in the action: the gate judges with main’s judge', () => {
  let fake: FakeGitHub
  let models: Awaited<ReturnType<typeof startJudgingModels>>
  let line = 'sure thing'
  fakeGitHubForSuite(() => fake, (started) => (fake = started))
  before(async () => {
    models = await startJudgingModels('lenient-judge', () => line)
    // main's run with main's judge, made by the bundled CLI.
    line = 'sure thing'
    await seedBaseline(fake, await checkout('main-judge'), INPUTS, { env: { MODELS_URL: models.url } })
  })
  after(async () => {
    await models.close()
  })
  const judgeCalls = (model: string) => models.judgeCalls(model)
  /** The base commit: main's convy.yml and workflow file, the convy step setting `env`. */
  const serveMain = (yml: string, env: Record<string, string> = {}) => {
    const envLines = Object.entries(env).map(([name, value]) => `          ${name}: ${JSON.stringify(value)}\n`)
    const workflow = workflowFile(INPUTS).replace(/( {6}- uses: convy\/action@v1\n)/, `$1${envLines.length ? `        env:\n${envLines.join('')}` : ''}`)
    fake.world.files.delete(BASE_SHA)
    fake.world.commitFiles(BASE_SHA, { '.github/workflows/convy.yml': workflow, 'convy.yml': yml })
  }
  const lenientPullRequest = async (number: number) => {
    line = 'no way'
    const run = fake.world.startRun({ event: 'pull_request', headBranch: `lenient-${number}`, headSha: sha(String(number % 10)) })
    const result = await runActionStep(fake, { ...pullRequestStep(fake, await checkout('lenient-judge'), { number, run, inputs: INPUTS }), env: { MODELS_URL: models.url }, base: 'as-served' })
    fake.world.finishRun(run.id, result.code === 0 ? 'success' : 'failure')
    const comments = fake.world.commentsOn(number)
    assert.equal(comments.length, 1, describeStep(result))
    return { result, run, comment: plain(comments[0]!.body), checks: fake.world.checkRuns.filter((c) => c.headSha === run.headSha).map((c) => c.conclusion) }
  }

  test("the pull request's dialogues are judged with main's judge, which finds the break its lenient judge hides: the step fails", async () => {
    serveMain(convyYml('main-judge'))
    const [lenient, strict] = [judgeCalls('lenient-judge'), judgeCalls('main-judge')]
    const { result, comment, checks } = await lenientPullRequest(51)
    expectExit(result, 1)
    assert.equal(result.outputs.verdict, 'worse', describeStep(result))
    assert.equal(judgeCalls('lenient-judge') - lenient, 5, "the PR's five attempts, by its own judge")
    assert.equal(judgeCalls('main-judge') - strict, 5, "the same five dialogues again, by main's; the baseline's were main's already")
    assert.deepEqual(checks, ['failure'])
    // The change first, then what each judge made of the pull request's dialogues.
    assert.match(comment, /^<!-- convy-ci:echo -->\n\n### 🟥 Worse · echo\n\n> 🟧 \*\*This pull request changes the gate's rules; the base branch's decide:\*\*\n> - this pull request changes the judge to "lenient-judge": the gate used the base branch \(main\)'s judge \("main-judge"\) on this pull request's dialogues/)
    assert.match(comment, /> ℹ️ The judge changed in this pull request: its 5 recorded dialogues were judged again with the base branch \(main\)'s judge \("main-judge" at 127\.0\.0\.1:\d+\/v1\), which the gate used\. For information, this pull request's own judge \("lenient-judge" at 127\.0\.0\.1:\d+\/v1\) passed 5 of 5 attempts \(pass rate 100%\); the base branch \(main\)'s judge passes 0 of 5 attempts \(pass rate 0%\)\./)
    assert.doesNotMatch(comment, /not attributable to the agent/)
  })

  test("main's judge cannot be asked (its step's JUDGE_URL answers nothing): evidence is missing, never a pass", async () => {
    // main's convy.yml reads its judge's address from a variable its own convy step sets: a dead port.
    serveMain(convyYml('main-judge', 'JUDGE_URL'), { JUDGE_URL: 'http://127.0.0.1:1/v1' })
    const strict = judgeCalls('main-judge')
    const { result, comment, checks } = await lenientPullRequest(52)
    expectExit(result, 1)
    assert.equal(result.outputs.verdict, 'inconclusive', describeStep(result))
    assert.equal(judgeCalls('main-judge'), strict, "main's judge was not reached")
    assert.deepEqual(checks, ['failure'])
    assert.match(comment, /^<!-- convy-ci:echo -->\n\n### ⚠️ Inconclusive, evidence missing [^\n]*\n\n> 🟧 \*\*This pull request changes the gate's rules[^\n]*\n> - this pull request changes the judge to "lenient-judge" at another endpoint \("\$\{MODELS_URL\}", was "\$\{JUDGE_URL\}"\)[^\n]*\n\n> ⚠️ \*\*Not a pass:\*\* the base branch \(main\)'s judge \("main-judge" at 127\.0\.0\.1:1\/v1\) could not judge this pull request's dialogues \(that judge cannot be reached from here \(the model gateway at http:\/\/127\.0\.0\.1:1\/v1 cannot be reached/)
    assert.ok(result.annotations.some((a) => a.level === 'error' && /^echo: inconclusive \(fail-on-inconclusive\): Not a pass: the base branch \(main\)'s judge/.test(a.message)), describeStep(result))
  })
})
