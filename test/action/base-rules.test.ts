import assert from 'node:assert/strict'
import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { before, describe, test } from 'node:test'
import { commentMarker } from '../../src/views/markdown/compare-markdown.ts'
import type { FakeGitHub } from '../fakes/github-server.ts'
import { fakeGitHubForSuite } from '../fakes/github-suite.ts'
import { describeStep, exampleWorkspace, runActionStep, workflowFile, type ActionStepResult } from './harness.ts'
import { seedBaseline } from './seeded-baseline.ts'
import { EXAMPLE_INPUTS as INPUTS, expectExit, pullRequestStep, pushStep, sha } from './steps.ts'

// Issue 38: a pull request cannot loosen its own check. The bundled action reads the base commit's
// workflow file (GITHUB_WORKFLOW_REF) and convy.yml through the fake GitHub's contents API, and the
// stricter of each gate-deciding setting applies; every difference is named first in the comment and
// in the check. Each route is a real regression (SUPPORT_BOT_VARIANT=regressed) hidden by one edit.

const BASE_SHA = 'b'.repeat(40)
/** The comment's text as a reader sees it: markdown escapes and the joiner that keeps a URL from linking removed. */
const plain = (markdown: string) => markdown.replace(/\\([\\`*_{}[\]()#+\-.!|<>$~])/g, '$1').replace(/\u200d/g, '')
const MARKER = commentMarker('support_bot')

describe('the base branch’s rules decide a pull request’s gate', () => {
  let fake: FakeGitHub
  let workspace: string
  let baseConvyYml: string

  fakeGitHubForSuite(() => fake, (started) => (fake = started))
  before(async () => {
    workspace = await exampleWorkspace()
    baseConvyYml = await readFile(join(workspace, 'convy.yml'), 'utf8')
    await seedBaseline(fake, workspace, INPUTS)
  })

  /** The base commit serves main's rules: the example inputs and convy.yml as they are on main. */
  const serveMain = (files: Record<string, string> = {}) => {
    fake.world.files.delete(BASE_SHA)
    fake.world.commitFiles(BASE_SHA, { '.github/workflows/convy.yml': workflowFile(INPUTS), 'convy.yml': baseConvyYml, ...files })
  }

  let number = 40
  const regressedPullRequest = async (inputs: Record<string, string>): Promise<{ result: ActionStepResult; headSha: string; pr: number }> => {
    const pr = number++
    const run = fake.world.startRun({ event: 'pull_request', headBranch: `loosen-${pr}`, headSha: sha(String(pr % 10)) })
    fake.world.pulls.set(pr, { number: pr, headSha: run.headSha, headRef: run.headBranch, headRepository: fake.world.fullName, baseRef: 'main' })
    const result = await runActionStep(fake, pullRequestStep(fake, workspace, { number: pr, run, inputs }, { env: { SUPPORT_BOT_VARIANT: 'regressed' }, base: 'as-served' }))
    fake.world.finishRun(run.id, result.code === 0 ? 'success' : 'failure')
    return { result, headSha: run.headSha, pr }
  }
  const checkOf = (headSha: string) => {
    const checks = fake.world.checkRuns.filter((c) => c.headSha === headSha)
    assert.equal(checks.length, 1)
    return checks[0]!
  }
  const commentOf = (pr: number) => {
    const comments = fake.world.commentsOn(pr).filter((c) => c.body.startsWith(MARKER))
    assert.equal(comments.length, 1)
    return plain(comments[0]!.body)
  }

  test('fail-on: never and comment: never in the pull request: main’s fail-on fails the check, the comment is posted and names both first', async () => {
    serveMain()
    const { result, headSha, pr } = await regressedPullRequest({ ...INPUTS, 'fail-on': 'never', comment: 'never' })
    expectExit(result, 1)
    const check = checkOf(headSha)
    assert.equal(check.conclusion, 'failure', describeStep(result))
    assert.match(check.title ?? '', /^Base branch’s rules · /)
    const body = commentOf(pr)
    const top = /^### [^\n]*\n\n> 🟧 \*\*This pull request changes the gate's rules; the base branch's decide:\*\*\n((?:> - [^\n]*\n)+)/m.exec(body)
    assert.ok(top, body.slice(0, 600))
    assert.match(plain(top[1]!), /changes fail-on from "worse" to "never": the gate used the base branch \(main\)'s \("worse"\)/)
    assert.match(plain(top[1]!), /changes comment from "on-change" to "never"/)
    assert.match(plain(check.summary ?? ''), /changes fail-on from "worse" to "never"/)
    // The fake checked every contents call against GitHub's OpenAPI description: the workflow file, convy.yml and the judge's calibration (main has none), at the base commit.
    const reads = fake.calls.filter((c) => c.operation === 'repos/get-content')
    assert.deepEqual(reads.slice(-3).map((c) => [decodeURIComponent(c.path), c.status]), [
      ['/repos/acme/support-bot/contents/.github/workflows/convy.yml', 200],
      ['/repos/acme/support-bot/contents/convy.yml', 200],
      ['/repos/acme/support-bot/contents/calibration.json', 404],
    ])
  })

  test('baseline: none and fail-on-inconclusive: false: main’s auto baseline is compared with, and the break fails', async () => {
    serveMain()
    const { result, headSha, pr } = await regressedPullRequest({ ...INPUTS, baseline: 'none', 'fail-on-inconclusive': 'false' })
    expectExit(result, 1)
    assert.equal(result.outputs.verdict, 'worse', describeStep(result))
    assert.equal(checkOf(headSha).conclusion, 'failure')
    assert.match(commentOf(pr), /changes baseline from "auto" to "none": the gate used the base branch \(main\)'s/)
  })

  test('fewer attempts than main asks for: evidence missing, the check fails and the comment says so first', async () => {
    serveMain({ '.github/workflows/convy.yml': workflowFile({ ...INPUTS, attempts: '5' }) })
    const { result, headSha, pr } = await regressedPullRequest({ ...INPUTS, attempts: '2' })
    expectExit(result, 1)
    assert.notEqual(checkOf(headSha).conclusion, 'success')
    assert.match(commentOf(pr), /this pull request lowers attempts from 5 to 2: its run has fewer attempts than the base branch \(main\)'s rules ask for/)
  })

  test('another judge at another endpoint in convy.yml: named first, and the break its run hides still fails (a judge change is settled with main’s judge: judge-change.test.ts)', async () => {
    serveMain()
    const changed = baseConvyYml.replace(/base_url: .*/, 'base_url: https://lenient.example/v1').replace(/judge: gpt-4\.1/, 'judge: gpt-lenient')
    assert.notEqual(changed, baseConvyYml)
    await writeFile(join(workspace, 'convy.yml'), changed)
    try {
      const { result, headSha, pr } = await regressedPullRequest(INPUTS)
      expectExit(result, 1)
      assert.equal(result.outputs.verdict, 'worse', describeStep(result))
      assert.equal(checkOf(headSha).conclusion, 'failure')
      const top = /^### [^\n]*\n\n> 🟧 \*\*This pull request changes the gate's rules; the base branch's decide:\*\*\n((?:> - [^\n]*\n)+)/m.exec(commentOf(pr))
      assert.ok(top, commentOf(pr).slice(0, 600))
      assert.match(top[1]!, /this pull request changes the judge to "gpt-lenient" at another endpoint \("https:\/\/lenient\.example\/v1", was "\$\{CONVY_BASE_URL:-https:\/\/api\.openai\.com\/v1\}"\): the gate used the base branch \(main\)'s judge \("gpt-4\.1"\) on this pull request's dialogues/)
    } finally {
      await writeFile(join(workspace, 'convy.yml'), baseConvyYml)
    }
  })

  test('a push to the default branch makes a baseline of baseline-attempts (10 by default), a pull request plays attempts', async () => {
    const { 'baseline-attempts': _five, ...inputs } = INPUTS
    const result = await runActionStep(fake, pushStep(fake, workspace, inputs, sha('c')))
    expectExit(result, 0)
    assert.match(result.summary, /This run: pass rate 100% · 40 of 40 over 4 scenarios/)
  })

  test('nothing changed: no difference is said, and the base commit was read', async () => {
    serveMain()
    const readsBefore = fake.calls.filter((c) => c.operation === 'repos/get-content' && c.status === 200).length
    const pr = number++
    const run = fake.world.startRun({ event: 'pull_request', headBranch: 'plain', headSha: sha('6') })
    const result = await runActionStep(fake, { ...pullRequestStep(fake, workspace, { number: pr, run, inputs: { ...INPUTS, comment: 'always' } }) })
    fake.world.finishRun(run.id, 'success')
    expectExit(result, 0)
    assert.equal(checkOf(run.headSha).conclusion, 'success')
    assert.doesNotMatch(commentOf(pr), /changes the gate's rules/)
    assert.equal(fake.calls.filter((c) => c.operation === 'repos/get-content' && c.status === 200).length, readsBefore + 2)
  })
})
