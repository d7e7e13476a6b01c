import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { judgeByRule, startFakeModelServer, type FakeModelServer } from '../../src/entry/testing/fake-model-server.ts'
import { JUDGE_TEMPERATURE, judgePromptFingerprint } from '../../src/play/judge/judge-prompt.ts'
import { STOP_WORD } from '../../src/play/simulated-user/simulated-user-prompt.ts'
import { CALIBRATION_FORMAT } from '../../src/records/calibration/calibration.ts'
import type { FakeGitHub } from '../fakes/github-server.ts'
import { fakeGitHubForSuite } from '../fakes/github-suite.ts'
import { modelsYml } from '../support/convy-yml.ts'
import { makeProject } from '../support/project.ts'
import { describeStep, runActionStep, workflowFile } from './harness.ts'
import { seedBaseline } from './seeded-baseline.ts'
import { expectExit, pullRequestStep, sha } from './steps.ts'

// Issue 38, item 1: the judge's calibration is one of the base branch's rules. A pull request that
// writes its own calibration.json (a high κ for the judge) must not clear judge.min_kappa when the
// base commit's calibration says the judge is below it. Through the bundle, against the fake GitHub
// (which serves the base commit's workflow file, convy.yml and calibration.json) and a fake judge.

const BASE_SHA = 'b'.repeat(40)
const CONVY_YML = `${modelsYml({ urlVariable: 'MODELS_URL' })}judge:\n  min_kappa: 0.6\n`
const SCENARIO = 'user: Ask for help, then stop.\njudge: [The agent answered]\nmax_turns: 1\n'
const INPUTS = { agent: 'echo', attempts: '5', parallel: '1', cache: 'off' }
const PR_INPUTS = { ...INPUTS, comment: 'always' }
/** The comment's text as a reader sees it: markdown escapes removed. */
const plain = (markdown: string) => markdown.replace(/\\([\\`*_{}[\]()#+\-.!|<>$~])/g, '$1').replace(/\u200d/g, '')

/** A calibration of the judge these runs use (judge-model, this convy-ci's prompt), with κ and its interval as given. */
const calibration = (kappa: number, lower: number, upper: number) =>
  `${JSON.stringify({
    format: CALIBRATION_FORMAT,
    judge: { model: 'judge-model', prompt: judgePromptFingerprint(), temperature: JUDGE_TEMPERATURE, samples: 1 },
    decisions: 'recorded',
    labels: { file: 'labels.jsonl', fingerprint: 'f'.repeat(64), runs: [] },
    overall: { labels: 60, agreement: null, onHolding: null, onFailing: null, kappa: { value: kappa, standardError: 0.05, interval: { lower, upper } } },
    scenarios: [],
    disagreements: 0,
    checkedAt: '2026-11-01T00:00:00.000Z',
    convyVersion: '0.0.0',
  })}\n`
const HIGH = calibration(0.95, 0.9, 1)
const LOW = calibration(0.3, 0.1, 0.5)

describe('the base branch’s calibration decides judge.min_kappa on a pull request', () => {
  let fake: FakeGitHub
  let models: FakeModelServer
  fakeGitHubForSuite(() => fake, (started) => (fake = started))
  before(async () => {
    models = await startFakeModelServer({ user: ({ dialogue }) => (dialogue.length === 0 ? 'help me please' : STOP_WORD), judge: judgeByRule(() => true) })
    await seedBaseline(fake, await makeProject({ 'convy.yml': CONVY_YML, 'scenarios/help.yml': SCENARIO, 'calibration.json': HIGH }), INPUTS, { env: { MODELS_URL: models.url } })
  })
  after(async () => {
    await models.close()
  })

  /** A pull request whose checkout has `own` as calibration.json, the base commit serving `base` (absent: none). */
  async function pullRequest(number: number, own: string, base: string | null) {
    fake.world.files.delete(BASE_SHA)
    fake.world.commitFiles(BASE_SHA, { '.github/workflows/convy.yml': workflowFile(PR_INPUTS), 'convy.yml': CONVY_YML, ...(base === null ? {} : { 'calibration.json': base }) })
    const workspace = await makeProject({ 'convy.yml': CONVY_YML, 'scenarios/help.yml': SCENARIO, 'calibration.json': own })
    const run = fake.world.startRun({ event: 'pull_request', headBranch: `calibration-${number}`, headSha: sha(String(number % 10)) })
    const result = await runActionStep(fake, { ...pullRequestStep(fake, workspace, { number, run, inputs: PR_INPUTS }, { base: 'as-served' }), env: { MODELS_URL: models.url } })
    fake.world.finishRun(run.id, result.code === 0 ? 'success' : 'failure')
    const checks = fake.world.checkRuns.filter((c) => c.headSha === run.headSha)
    assert.equal(checks.length, 1, describeStep(result))
    const [comment] = fake.world.commentsOn(number)
    assert.ok(comment, describeStep(result))
    const reads = fake.calls.filter((c) => c.operation === 'repos/get-content').map((c) => decodeURIComponent(c.path))
    return { result, check: checks[0]!, comment: plain(comment.body), reads }
  }

  test('the base’s calibration clears min_kappa and the pull request keeps it: the check passes, no difference is said', async () => {
    const { result, check, comment, reads } = await pullRequest(61, HIGH, HIGH)
    expectExit(result, 0)
    assert.equal(check.conclusion, 'success', describeStep(result))
    assert.doesNotMatch(comment, /changes the gate's rules/)
    assert.equal(reads.at(-1), '/repos/acme/support-bot/contents/calibration.json')
  })

  test('a forged calibration.json with a high κ over the base’s low one: the gate reads the base’s, does not pass, and the comment names the change first', async () => {
    const { result, check, comment } = await pullRequest(62, HIGH, LOW)
    expectExit(result, 1)
    assert.notEqual(check.conclusion, 'success', describeStep(result))
    assert.equal(result.outputs.verdict, 'inconclusive', describeStep(result))
    const top = /^### [^\n]*\n\n> 🟧 \*\*This pull request changes the gate's rules; the base branch's decide:\*\*\n((?:> - [^\n]*\n)+)/m.exec(comment)
    assert.ok(top, comment.slice(0, 800))
    assert.match(
      top[1]!,
      /this pull request changes the judge's calibration \(calibration\.json\) from κ 0\.30 \(95% CI 0\.10–0\.50\) on 60 labels of "judge-model" to κ 0\.95 \(95% CI 0\.90–1\.00\) on 60 labels of "judge-model": the gate used the base branch \(main\)'s/,
    )
    assert.match(comment, /The verdict rests on an unchecked judge: its κ against the labels is 0\.30 \(95% CI 0\.10–0\.50\): the lower end is below judge\.min_kappa 0\.6/)
  })

  test('the base has no calibration.json and the pull request adds one: the gate behaves as the base would, without one', async () => {
    const { result, check, comment } = await pullRequest(63, HIGH, null)
    expectExit(result, 1)
    assert.notEqual(check.conclusion, 'success', describeStep(result))
    assert.match(comment, /this pull request changes the judge's calibration \(calibration\.json\) from none to κ 0\.95/)
    assert.match(comment, /The verdict rests on an unchecked judge: no calibration of this judge against labels/)
  })
})
