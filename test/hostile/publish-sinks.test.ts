import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { COMMENT_CHARACTERS } from '../../src/adapters/github/limits.ts'
import { createOctokit } from '../../src/adapters/github/octokit.ts'
import type { PublishDeps } from '../../src/app/publish/deps.ts'
import { postToPullRequest, type PullRequestPost } from '../../src/app/publish/post-to-pull-request.ts'
import { createMask } from '../../src/base/shared/secrets.ts'
import type { FakeGitHub } from '../fakes/github-server.ts'
import { fakeGitHubForSuite } from '../fakes/github-suite.ts'
import { tokenForms } from '../fakes/hostile-agent.ts'
import { leaksOf } from './leak-search.ts'

// Issue 23: the last step before the comment and the check leave is the mask, applied by the REST
// client to every write's parameters, after every clean-up and cut; and the text is masked before
// GitHub's limits cut it, as a cut through a secret leaves a piece of it that no mask recognises.
const SECRET = 'Cn4ry-b0t-t0ken-9f8e7d'

describe('the sinks of a publication: the REST client and the cut', () => {
  let fake: FakeGitHub

  // The token is a secret too, and so is the owner's name here: neither is masked where it is not text
  // sent (the Authorization header, the address), or every call would fail.
  const publishDeps = (withMask: boolean, secrets: readonly string[] = [SECRET, fake.token, 'acme']): PublishDeps => ({
    octokit: createOctokit(fake.token, fake.url, createMask(secrets)),
    repository: { owner: 'acme', repo: 'support-bot' },
    serverUrl: 'https://github.com',
    settings: { failOn: 'worse', failOnInconclusive: true, gateAcrossJudgeChange: false, comment: 'always', check: true, job: null },
    log: { info: () => {}, notice: () => {}, warning: (message) => assert.fail(message) },
    now: () => new Date('2026-12-01T00:00:00Z'),
    ...(withMask ? { mask: createMask(secrets) } : {}),
  })
  const post = (markdown: string, title: string): PullRequestPost => ({
    agent: 'bot',
    marker: '<!-- convy-ci:bot -->',
    checkName: 'convy / bot',
    markdown: `<!-- convy-ci:bot -->\n${markdown}`,
    verdict: 'worse',
    noteworthy: true,
    conclusion: 'failure',
    title,
    reportUrl: null,
  })

  fakeGitHubForSuite(() => fake, (started) => (fake = started))

  test('every form of the secret in the comment, the check title and summary is masked as it is sent; the call still authenticates and goes where it should', async () => {
    const forms = [SECRET, `base64 ${Buffer.from(`user:${SECRET}`).toString('base64')}`, ...tokenForms(SECRET), `token ${fake.token}`, 'owner acme'].join('\n')
    const received = fake.received.length
    const url = await postToPullRequest(publishDeps(false), { number: 3, headSha: 'c'.repeat(40), readOnlyReason: null }, post(forms, `worse: ${SECRET.slice(0, 4)}\u202E${SECRET.slice(4)}`))
    assert.match(url ?? '', /\/acme\/support-bot\/pull\/3#issuecomment-\d+$/)
    const [comment, ...others] = fake.world.commentsOn(3)
    assert.equal(others.length, 0)
    const [check] = fake.world.checkRuns.slice(-1)
    assert.equal(check!.title, 'worse: ***')
    assert.match(comment!.body, /^owner \*\*\*$/m, 'masked in the text')
    const sent = fake.received.slice(received).map((request) => request.body.toString('utf8'))
    assert.equal(sent.filter((body) => body.includes('"body"') || body.includes('"output"')).length, 2, 'the comment and the check were sent')
    assert.deepEqual(leaksOf(sent.join('\n'), [SECRET, fake.token]), [])
  })

  test("a secret of several lines that GitHub's limit cuts through: masked before the cut, nothing of it is sent; masked only as it is sent, its first lines are", async () => {
    // A key of several lines, as a PEM is: the cut falls on a line break inside it.
    const key = ['-----BEGIN PRIVATE KEY-----', ...Array.from({ length: 6 }, (_, i) => `MIIEv${String(i).repeat(55)}`), '-----END PRIVATE KEY-----'].join('\n')
    const note = "…cut to fit GitHub's comment limit."
    const budget = COMMENT_CHARACTERS - note.length - 2
    const line = `${'x'.repeat(budget - '<!-- convy-ci:bot -->\n'.length - 100)}\n${key}\nafter the key ${'z'.repeat(200)}`
    for (const [pr, withMask] of [
      [4, true],
      [5, false],
    ] as const) {
      await postToPullRequest(publishDeps(withMask, [key]), { number: pr, headSha: 'd'.repeat(40), readOnlyReason: null }, post(line, 'cut'))
      const [comment] = fake.world.commentsOn(pr)
      assert.ok(comment!.body.length <= COMMENT_CHARACTERS && comment!.body.endsWith(note), 'cut to fit')
      assert.equal(comment!.body.includes('MIIEv0000'), !withMask, withMask ? 'masked before the cut: nothing of the key' : 'the control: the cut leaves its first lines')
    }
  })
})
