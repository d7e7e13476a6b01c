import assert from 'node:assert/strict'
import { before, describe, test } from 'node:test'
import { apiFailure } from '../../src/adapters/github/api-error.ts'
import { findBaseline } from '../../src/adapters/github/baseline.ts'
import { createCompletedCheck } from '../../src/adapters/github/check-run.ts'
import { createOctokit, type Octokit } from '../../src/adapters/github/octokit.ts'
import { upsertStickyComment, type StickyComment } from '../../src/adapters/github/sticky-comment.ts'
import type { FakeGitHub } from '../fakes/github-server.ts'
import { fakeGitHubForSuite } from '../fakes/github-suite.ts'

// The REST pieces in-process, through octokit, against the fake GitHub (which validates every call
// against GitHub's OpenAPI description).

describe('GitHub REST: sticky comment, check run, baseline search', () => {
  let fake: FakeGitHub
  let octokit: Octokit
  fakeGitHubForSuite(() => fake, (started) => (fake = started))
  before(async () => {
    octokit = createOctokit(fake.token, fake.url)
  })

  const comment = (issueNumber: number, body: string, fields: Partial<StickyComment> = {}) =>
    upsertStickyComment(octokit, { owner: 'acme', repo: 'support-bot', issueNumber, marker: '<!-- convy-ci:bot -->', body: `<!-- convy-ci:bot -->\n${body}`, updateOnly: false, cutNote: '…cut.', ...fields })
  const seed = (issueNumber: number, n: number, body = (i: number) => `comment ${i}`) => {
    for (let i = 0; i < n; i++) fake.world.comments.push({ id: fake.world.id(), issueNumber, body: body(i), login: 'reviewer', createdAt: fake.world.now(), updatedAt: fake.world.now() })
  }

  test('one comment per marker: created once, then found on any page and updated in place', async () => {
    seed(1, 150)
    const created = await comment(1, 'first')
    assert.equal(created.action, 'created')
    seed(1, 120)
    const updated = await comment(1, 'second')
    assert.equal(updated.action, 'updated')
    assert.equal(updated.url, created.url)
    const ours = fake.world.commentsOn(1).filter((c) => c.body.startsWith('<!-- convy-ci:bot -->'))
    assert.deepEqual(ours.map((c) => c.body), ['<!-- convy-ci:bot -->\nsecond'])
  })

  test('a comment that only quotes the marker is not ours; updateOnly creates nothing', async () => {
    seed(2, 1, () => 'Why does the bot write <!-- convy-ci:bot --> at the top?')
    const writes = fake.restWrites().length
    assert.deepEqual(await comment(2, 'x', { updateOnly: true }), { action: 'none', url: null })
    assert.equal(fake.restWrites().length, writes)
    assert.equal((await comment(2, 'x')).action, 'created')
    assert.equal(fake.world.commentsOn(2).length, 2)
  })

  test('a body over GitHub’s 65,536 characters is cut to fit, with the note', async () => {
    const long = Array.from({ length: 3000 }, (_, i) => `| scenario-${i} | 3/3 | 3/3 |`).join('\n')
    assert.ok(long.length > 65_536)
    await comment(3, long)
    const [posted] = fake.world.commentsOn(3)
    assert.ok(posted && posted.body.length <= 65_536 && posted.body.length > 60_000)
    assert.ok(posted.body.endsWith('\n\n…cut.'))
  })

  test('a check run is created completed, its summary within 65,535 characters', async () => {
    const summary = 'x'.repeat(70_000)
    const check = await createCompletedCheck(octokit, { owner: 'acme', repo: 'support-bot', name: 'convy / bot', headSha: 'a'.repeat(40), conclusion: 'neutral', title: 'Worse', summary, detailsUrl: null, cutNote: 'cut' })
    const stored = fake.world.checkRuns.find((c) => c.id === check.id)
    assert.equal(stored?.status, 'completed')
    assert.equal(stored?.conclusion, 'neutral')
    assert.ok(stored?.summary && stored.summary.length <= 65_535)
  })

  test('a read-only token: the failure names the permission to grant', async () => {
    fake.readOnly = true
    try {
      const error = await comment(4, 'x').then(() => null, (e: unknown) => e)
      assert.equal(apiFailure(error, 'pull-requests: write'), 'Resource not accessible by integration (HTTP 403); the workflow needs `permissions: { pull-requests: write }`')
    } finally {
      fake.readOnly = false
    }
  })

  test('a route GitHub has that the fake does not serve, one GitHub does not have, and a bad request are violations', async () => {
    const call = (method: string, path: string, body?: object) =>
      fetch(`${fake.url}${path}`, { method, headers: { authorization: `token ${fake.token}`, 'content-type': 'application/json' }, ...(body ? { body: JSON.stringify(body) } : {}) })
    try {
      // The fake loads only the operations it serves whole: every other route of GitHub's still
      // matches its own operation, and nothing matches a route GitHub does not have.
      assert.equal((await call('GET', '/repos/acme/support-bot/pulls/comments')).status, 501)
      assert.equal((await call('GET', '/repos/acme/support-bot/branches')).status, 501)
      assert.equal((await call('GET', '/repos/acme/support-bot/no-such-thing')).status, 404)
      assert.equal((await call('POST', '/repos/acme/support-bot/check-runs', { name: 'x' })).status, 422)
      assert.deepEqual(fake.violations.slice(0, 3), [
        'rest: the fake does not serve pulls/list-review-comments-for-repo',
        'rest: the fake does not serve repos/list-branches',
        'rest: GitHub has no GET /repos/acme/support-bot/no-such-thing',
      ])
      assert.match(fake.violations[3] ?? '', /^rest checks\/create request: .*head_sha/)
      assert.equal(fake.violations.length, 4)
    } finally {
      fake.violations.length = 0
    }
  })

  describe('the baseline: the newest good run on the branch with the artifact', () => {
    const zip = Buffer.from('PK\u0003\u0004 a run')
    const run = (fields: Parameters<FakeGitHub['world']['startRun']>[0], conclusion: 'success' | 'failure' = 'success', artifact: 'live' | 'expired' | 'none' = 'live') => {
      const started = fake.world.startRun(fields)
      if (artifact !== 'none') fake.world.addArtifact(started.id, 'convy-bot', zip, { expired: artifact === 'expired' })
      fake.world.finishRun(started.id, conclusion)
      return started
    }
    const search = (fields: Partial<Parameters<typeof findBaseline>[1]> = {}) =>
      findBaseline(octokit, { owner: 'acme', repo: 'support-bot', workflow: 161335, branch: 'main', artifactName: 'convy-bot', ...fields })

    test('passes over expired artifacts, failed runs, pull request runs of a branch named main, and other branches', async () => {
      const good = run({ event: 'push', headBranch: 'main', headSha: '1'.repeat(40) })
      run({ event: 'push', headBranch: 'main', headSha: '2'.repeat(40) }, 'success', 'expired')
      run({ event: 'push', headBranch: 'main', headSha: '3'.repeat(40) }, 'failure')
      run({ event: 'pull_request', headBranch: 'main', headSha: '4'.repeat(40), headRepository: 'mallory/support-bot' })
      run({ event: 'push', headBranch: 'develop', headSha: '5'.repeat(40) })
      const result = await search()
      assert.equal(result.found?.runId, good.id)
      assert.equal(result.found?.headSha, good.headSha)
      assert.match(result.found?.digest ?? '', /^sha256:[0-9a-f]{64}$/)
      assert.equal(result.expired, 1)
      assert.equal((await search({ excludeRunId: good.id })).found, null)
    })

    test('reads further pages of runs, up to maxRuns', async () => {
      for (let i = 0; i < 25; i++) run({ event: 'schedule', headBranch: 'main', headSha: 'a'.repeat(40) }, 'success', 'none')
      const result = await search()
      assert.ok(result.found)
      // The 25 runs without the artifact, the newer one whose artifact expired, then the good one.
      assert.equal(result.runsSeen, 27)
      const limited = await search({ maxRuns: 10 })
      assert.equal(limited.found, null)
      assert.equal(limited.runsSeen, 10)
    })

    test('other workflows only when no workflow is named', async () => {
      assert.equal((await search({ workflow: 999 })).found, null)
      assert.ok((await search({ workflow: 'convy.yml' })).found)
      assert.ok((await search({ workflow: null })).found)
    })
  })
})
