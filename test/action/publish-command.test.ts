import assert from 'node:assert/strict'
import { mkdtemp, readFile, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { before, describe, test } from 'node:test'
import { shortId } from '../../src/records/journal/run-folder.ts'
import { commentMarker } from '../../src/views/markdown/compare-markdown.ts'
import type { FakeGitHub } from '../fakes/github-server.ts'
import { fakeGitHubForSuite } from '../fakes/github-suite.ts'
import { runInProcess } from '../cli/harness.ts'
import { clockAhead } from '../support/clock-ahead.ts'
import { pullRequestEvent, pushEvent } from './events.ts'
import { describeStep, exampleWorkspace, runActionStep, runBundledCli } from './harness.ts'
import { seedBaseline } from './seeded-baseline.ts'
import { EXAMPLE_INPUTS, sha } from './steps.ts'

// `convy-ci publish` (the bundled CLI), as another CI would call it: a push to main uploaded the
// baseline (seeded-baseline.ts: a run the bundled CLI made); a run made elsewhere is compared with it
// and posted on the pull request by the same code the action posts with.

const MARKER = commentMarker('support_bot')
const SCENARIOS = EXAMPLE_INPUTS.scenarios.split(',').flatMap((id) => ['--scenarios', id])
const cli = runBundledCli

describe('convy-ci publish', () => {
  let fake: FakeGitHub
  let baselineId: string
  let elsewhere: string
  let localRunId: string
  let github: Record<string, string>
  const head = sha('b')

  fakeGitHubForSuite(() => fake, (started) => (fake = started))
  before(async () => {
    const workspace = await exampleWorkspace()
    ;({ runId: baselineId } = await seedBaseline(fake, workspace, EXAMPLE_INPUTS))
    fake.world.pulls.set(12, { number: 12, headSha: head, headRef: 'fix-greeting', headRepository: fake.world.fullName, baseRef: 'main' })

    // The pull request's run, played by the CLI in another checkout: the regressed bot fails order-status.
    elsewhere = await exampleWorkspace()
    const played = await cli(['run', 'support_bot', '-k', '5', ...SCENARIOS], { SUPPORT_BOT_VARIANT: 'regressed' }, elsewhere)
    assert.equal(played.code, 0, played.stderr)
    localRunId = /^run (support_bot\/\S+)$/m.exec(played.stdout)![1]!
    github = { GITHUB_TOKEN: fake.token, GITHUB_API_URL: fake.url, GITHUB_REPOSITORY: fake.world.fullName }
  })

  const ourComments = () => fake.world.commentsOn(12).filter((c) => c.body.startsWith(MARKER))
  const ourChecks = () => fake.world.checkRuns.filter((c) => c.name === 'convy / support_bot')

  test('compares with the push run, posts one Worse comment and a failing check on the head commit, prints the same text and exits 1 on fail-on worse', async () => {
    const home = await mkdtemp(join(tmpdir(), 'convy-ci-'))
    const summary = join(home, 'summary.md')
    await writeFile(summary, '')
    const result = await cli(['publish', shortId(localRunId), '--pr', '12', '--sha', head, '--fail-on', 'worse', '--report-url', 'https://ci.example/report.html'], { ...github, GITHUB_STEP_SUMMARY: summary }, elsewhere)
    assert.equal(result.code, 1, result.stderr)
    assert.match(result.stderr, /^gate \(fail-on: worse\): fail: /m)
    assert.match(result.stderr, /^support_bot: worse than the baseline \(fail-on: worse\)$/m)

    const [comment, ...more] = ourComments()
    assert.equal(more.length, 0)
    assert.ok(comment)
    assert.match(comment.body, /^<!-- convy-ci:support_bot -->\n\n### 🟥 Worse · support\\_bot/)
    assert.ok(comment.body.includes(`\\_${shortId(baselineId)}`), 'the baseline is the push run')
    const row = comment.body.split('\n').find((line) => line.startsWith('| [order-status]('))
    assert.ok(row?.startsWith('| [order-status](https://ci.example/report.html#scenario-order-status) | 5/5 | 0/5 |'), comment.body)
    assert.match(comment.body, /_Baseline .*: from the artifact of \[workflow run \d+\]\(https:\/\/github\.com\/acme\/support-bot\/actions\/runs\/\d+\), made \d+ minutes? ago\._/)
    assert.ok(comment.body.includes('[Full report](https://ci.example/report.html)'))
    assert.equal(result.stdout.trim(), comment.body.trim())
    assert.equal((await readFile(summary, 'utf8')).trim(), comment.body.trim())

    const [check, ...moreChecks] = ourChecks()
    assert.equal(moreChecks.length, 0)
    assert.ok(check)
    assert.equal(check.headSha, head)
    assert.equal(check.status, 'completed')
    assert.equal(check.conclusion, 'failure')
    assert.equal(check.title, 'Worse: pass rate 100% → 75%')
    assert.equal(check.summary, comment.body)
    assert.equal(check.detailsUrl, 'https://ci.example/report.html')
  })

  test('a second publish, the pull request taken from the event file, updates the same comment in place; fail-on defaults to worse, as in the action', async () => {
    const first = { ...ourComments()[0]! }
    const home = await mkdtemp(join(tmpdir(), 'convy-ci-'))
    const event = join(home, 'event.json')
    await writeFile(event, JSON.stringify(pullRequestEvent(fake.world, { number: 12, headSha: head, headRef: 'fix-greeting' })))
    const result = await cli(['publish', 'support_bot'], { ...github, GITHUB_EVENT_PATH: event }, elsewhere)
    assert.equal(result.code, 1, result.stderr)
    const [comment, ...more] = ourComments()
    assert.equal(more.length, 0, 'one sticky comment')
    assert.equal(comment!.id, first.id)
    assert.match(comment!.body, /### 🟥 Worse · support\\_bot/)
    assert.doesNotMatch(comment!.body, /ci\.example/, 'the text is the second publish’s, without the first one’s report link')
    const checks = ourChecks()
    assert.equal(checks.length, 2)
    assert.equal(checks[1]!.conclusion, 'failure')
    assert.equal(checks[1]!.headSha, head)
  })

  test('--comment never and --no-check post nothing; the markdown is still printed and the gate still decides', async () => {
    const writes = fake.restWrites().length
    const result = await cli(['publish', localRunId, '--pr', '12', '--sha', head, '--comment', 'never', '--no-check', '--fail-on', 'failing'], github, elsewhere)
    assert.equal(result.code, 1, result.stderr)
    assert.match(result.stdout, /### 🟥 Worse · support\\_bot/)
    assert.equal(fake.restWrites().length, writes)
  })

  test('posts what the action posts: for the action’s own run, the same comment text and the same check', async () => {
    const workspace = await exampleWorkspace()
    const run = fake.world.startRun({ event: 'pull_request', headBranch: 'fix-greeting', headSha: sha('c') })
    fake.world.pulls.set(13, { number: 13, headSha: run.headSha, headRef: 'fix-greeting', headRepository: fake.world.fullName, baseRef: 'main' })
    const step = { run, sha: sha('e'), eventName: 'pull_request', payload: pullRequestEvent(fake.world, { number: 13, headSha: run.headSha, headRef: 'fix-greeting' }), workspace }
    // Both say how old the baseline is: with their clocks five hours ahead, both say five hours, however
    // long the steps between them took (to the minute, they could differ).
    const later = clockAhead(5)
    const action = await runActionStep(fake, { ...step, inputs: EXAMPLE_INPUTS, env: { SUPPORT_BOT_VARIANT: 'regressed', ...later } })
    assert.equal(action.code, 1, describeStep(action))
    fake.world.pulls.set(14, { number: 14, headSha: run.headSha, headRef: 'fix-greeting', headRepository: fake.world.fullName, baseRef: 'main' })
    const args = ['publish', action.outputs['run-id']!, '--results', join(workspace, 'results'), '--pr', '14', '--sha', run.headSha, '--report-url', action.outputs['report-url']!, '--fail-on', 'worse']
    const result = await cli(args, { ...github, ...later }, elsewhere)
    assert.equal(result.code, 1, result.stderr)
    const [byAction] = fake.world.commentsOn(13).filter((c) => c.body.startsWith(MARKER))
    const [byCli] = fake.world.commentsOn(14).filter((c) => c.body.startsWith(MARKER))
    assert.ok(byAction && byCli)
    assert.match(byAction.body, /, made 5 hours ago\._\n$/)
    assert.equal(byCli.body, byAction.body)
    const [first, second] = ourChecks().filter((c) => c.headSha === run.headSha)
    assert.ok(first && second)
    assert.deepEqual({ ...second, id: 0 }, { ...first, id: 0 })
    assert.equal(second.conclusion, 'failure')
  })

  test('a missing token, repository, pull request or commit, or a wrong flag, is exit 2 naming it, before anything is fetched', async () => {
    const calls = fake.calls.length
    const cases: [string[], Record<string, string>, RegExp][] = [
      [['publish', 'support_bot', '--pr', '12', '--sha', head], { GITHUB_API_URL: fake.url, GITHUB_REPOSITORY: fake.world.fullName }, /set GITHUB_TOKEN \(or GH_TOKEN\)/],
      [['publish', 'support_bot', '--pr', '12', '--sha', head], { GITHUB_TOKEN: fake.token, GITHUB_API_URL: fake.url }, /--repo owner\/name \(or GITHUB_REPOSITORY\)/],
      [['publish', 'support_bot', '--sha', head], github, /give the pull request as --pr <number>/],
      [['publish', 'support_bot', '--pr', '12'], github, /--sha <commit>/],
      [['publish', 'support_bot', '--pr', 'twelve', '--sha', head], github, /--pr twelve: expected the pull request's number/],
      [['publish', 'support_bot', '--pr', '12', '--sha', 'main'], github, /--sha main: expected a full commit SHA/],
      [['publish', 'support_bot', '--pr', '12', '--sha', head, '--comment', 'sometimes'], github, /--comment sometimes: expected one of on-change, always, never/],
      [['publish', 'support_bot', '--pr', '12', '--sha', head, '--fail-on', 'bad'], github, /--fail-on bad: expected one of/],
      [['publish', '--pr', '12', '--sha', head], github, /give one run/],
      [['publish', 'nosuch', '--pr', '12', '--sha', head], github, /no run "nosuch" in /],
    ]
    // The first through the bundle; the others through the same runCli in this process, which is
    // what the bundle runs (a bundled process each cost about 0.9 CPU-s and proved nothing more).
    for (const [index, [args, env, message]] of cases.entries()) {
      const result = index === 0 ? await cli(args, env, elsewhere) : await runInProcess(args, { cwd: elsewhere, env })
      assert.equal(result.code, 2, `${args.join(' ')}: ${result.stderr}`)
      assert.match(result.stderr, message)
    }
    const push = await mkdtemp(join(tmpdir(), 'convy-ci-'))
    const event = join(push, 'event.json')
    await writeFile(event, JSON.stringify(pushEvent(fake.world, sha('d'))))
    const noPr = await cli(['publish', 'support_bot'], { ...github, GITHUB_EVENT_PATH: event }, elsewhere)
    assert.equal(noPr.code, 2)
    assert.match(noPr.stderr, new RegExp(`--pr <number> \\(the event file ${event.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} names no pull request\\)`))
    assert.equal(fake.calls.length, calls, 'nothing was fetched')
  })
})
