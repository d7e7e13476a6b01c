import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { fakeReply, judgeAnswer, startFakeModelServer, type FakeModelServer } from '../../src/entry/testing/fake-model-server.ts'
import { STOP_WORD } from '../../src/play/simulated-user/simulated-user-prompt.ts'
import type { FakeGitHub } from '../fakes/github-server.ts'
import { fakeGitHubForSuite } from '../fakes/github-suite.ts'
import { modelsYml } from '../support/convy-yml.ts'
import { makeProject } from '../support/project.ts'
import { describeStep, runActionStep } from './harness.ts'
import { seedBaseline } from './seeded-baseline.ts'
import { expectExit, pullRequestStep, sha } from './steps.ts'

// A pull request that breaks the agent and, in the same change, switches the judge model, through the
// bundle against the fake GitHub and a fake model server. The old judge passes everything; the new one
// passes an answer only when it says "sure". The echo agent says what the user's line says.

const convyYml = (judge: string) => modelsYml({ urlVariable: 'MODELS_URL', judge })
const SCENARIO = 'user: Ask for help, then stop.\njudge: [The agent agreed to help]\nmax_turns: 1\n'
const INPUTS = { agent: 'echo', attempts: '5', parallel: '1', cache: 'off' }

const checkout = (judge: string) => makeProject({ 'convy.yml': convyYml(judge), 'scenarios/help.yml': SCENARIO })

describe('a judge change made by the pull request, in the action', () => {
  let fake: FakeGitHub
  let models: FakeModelServer
  let line = 'sure thing'
  fakeGitHubForSuite(() => fake, (started) => (fake = started))
  before(async () => {
    models = await startFakeModelServer({
      user: ({ dialogue }) => (dialogue.length === 0 ? line : STOP_WORD),
      handler: ({ model, judge }) => {
        if (!judge) return undefined
        const pass = model === 'old-judge' || judge.dialogue.some((l) => l.role === 'agent' && l.text.includes('sure'))
        return fakeReply.text(judgeAnswer(judge.claims.map(() => ({ pass, reason: `${model} decided` }))))
      },
    })
  })
  after(async () => {
    await models.close()
  })
  const judgeCalls = (model: string) => models.requests.filter((r) => r.kind === 'judge' && (r.body as { model: string }).model === model).length

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
    assert.match(comment.body, /^<!-- convy-ci:echo -->\n\n### 🟥 Worse · echo\n\n> ℹ️ The judge changed in this pull request \\\(model\\\): the baseline's 5 recorded dialogues were judged again with this run's judge \\\(new-judge, 1 sample each, reviewed as this run reviews\\\), so both runs are compared like with like\.\n/)
    assert.doesNotMatch(comment.body, /not attributable to the agent/)
    assert.deepEqual(fake.world.checkRuns.filter((c) => c.headSha === run.headSha).map((c) => c.conclusion), ['failure'])
  })
})
