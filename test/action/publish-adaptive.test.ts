import assert from 'node:assert/strict'
import { before, describe, test } from 'node:test'
import { shortId } from '../../src/records/journal/run-folder.ts'
import { commentMarker } from '../../src/views/markdown/compare-markdown.ts'
import type { FakeGitHub } from '../fakes/github-server.ts'
import { fakeGitHubForSuite } from '../fakes/github-suite.ts'
import { exampleWorkspace, runBundledCli } from './harness.ts'
import { seedBaseline } from './seeded-baseline.ts'
import { EXAMPLE_INPUTS, sha } from './steps.ts'

// `convy-ci publish` of an adaptive run (issue 39): its rounds were decided against one baseline, the
// run main had when it was played. A newer push to main lands before it is published: the comment
// still compares with the run the rounds saw, never with one they did not.

const SCENARIOS = EXAMPLE_INPUTS.scenarios.split(',').flatMap((id) => ['--scenarios', id])
const cli = runBundledCli

describe('convy-ci publish, an adaptive run', () => {
  let fake: FakeGitHub
  let workspace: string
  let older: string
  let newer: string
  let adaptive: string
  const head = sha('d')
  fakeGitHubForSuite(() => fake, (started) => (fake = started))
  before(async () => {
    workspace = await exampleWorkspace()
    ;({ runId: older } = await seedBaseline(fake, workspace, EXAMPLE_INPUTS))
    const played = await cli(['run', 'support_bot', '--adaptive', '--baseline', shortId(older), '-k', '3', '--max-attempts', '5', ...SCENARIOS], { SUPPORT_BOT_VARIANT: 'regressed' }, workspace)
    assert.equal(played.code, 0, played.stderr)
    adaptive = /^run (support_bot\/\S+)$/m.exec(played.stdout)![1]!
    // main moves on before the pull request's run is published.
    ;({ runId: newer } = await seedBaseline(fake, await exampleWorkspace(), EXAMPLE_INPUTS, { headSha: sha('e') }))
    fake.world.pulls.set(14, { number: 14, headSha: head, headRef: 'adaptive', headRepository: fake.world.fullName, baseRef: 'main' })
  })

  test('compares with the baseline its rounds were decided against, not the newest run of main', async () => {
    assert.notEqual(older, newer)
    const github = { GITHUB_TOKEN: fake.token, GITHUB_API_URL: fake.url, GITHUB_REPOSITORY: fake.world.fullName }
    const result = await cli(['publish', shortId(adaptive), '--pr', '14', '--sha', head, '--fail-on', 'never'], github, workspace)
    assert.equal(result.code, 0, result.stderr)
    assert.match(result.stderr, new RegExp(`baseline ${older.replace(/[/.]/g, '\\$&')} from workflow run`))
    const [comment] = fake.world.commentsOn(14).filter((c) => c.body.startsWith(commentMarker('support_bot')))
    assert.ok(comment)
    assert.ok(comment.body.includes(`\\_${shortId(older)}`), 'the baseline the rounds saw')
    assert.ok(!comment.body.includes(`\\_${shortId(newer)}`), comment.body)
    assert.match(comment.body, /Adaptive attempts: \d+ of 20 played/)
  })
})
