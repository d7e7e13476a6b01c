import assert from 'node:assert/strict'
import { mkdtemp } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { before, describe, test } from 'node:test'
import { fetchHistory, type HistorySearch } from '../../src/adapters/github/history.ts'
import { createOctokit } from '../../src/adapters/github/octokit.ts'
import type { FakeGitHub } from '../fakes/github-server.ts'
import { fakeGitHubForSuite } from '../fakes/github-suite.ts'
import { zipOf } from '../fakes/zip.ts'

// The history read, in process, against the fake GitHub: which runs count, and how many requests it
// takes — one listing of the repository's summaries rather than one per run, until a busy repository's
// listing does not reach back.

const NAME = 'convy-bot+summary'
const summary = (day: number, passed: number) =>
  zipOf([
    {
      name: 'summary.json',
      deflate: true,
      data: Buffer.from(
        JSON.stringify({
          format: 1,
          run: `bot/2026-10-${String(day).padStart(2, '0')}T10-00-00_0000`,
          agent: 'bot',
          commit: null,
          branch: 'main',
          startedAt: `2026-10-${String(day).padStart(2, '0')}T10:00:00.000Z`,
          finishedAt: null,
          state: 'finished',
          k: 5,
          scenarios: [{ id: 'a', attempts: 5, passed, judged: 5, errors: 0, noVerdicts: 0, medianAnswerSeconds: null, costUsd: null }],
          medianAnswerSeconds: null,
          costUsd: null,
        }),
      ),
    },
  ])

describe('fetchHistory', () => {
  let fake: FakeGitHub
  const search = (runs: number, extra: Partial<HistorySearch> = {}): HistorySearch => ({ owner: 'acme', repo: 'support-bot', workflow: null, branch: 'main', prefix: 'convy', agent: 'bot', runs, ...extra })
  const mainRuns: number[] = []
  fakeGitHubForSuite(() => fake, (started) => (fake = started))
  before(async () => {
    for (let day = 1; day <= 6; day++) {
      const run = fake.world.startRun({ event: 'push', headBranch: 'main', headSha: 'c'.repeat(40) })
      fake.world.addArtifact(run.id, NAME, summary(day, day % 2 ? 5 : 3))
      fake.world.finishRun(run.id, 'success')
      mainRuns.push(run.id)
    }
  })

  test('the newest N successful runs of the branch, newest first, in 1 + 1 + 2 per summary requests', async () => {
    const calls = fake.calls.length
    const fetched = await fetchHistory(createOctokit(fake.token, fake.url), search(4, { excludeRunId: mainRuns.at(-1)! }), await mkdtemp(join(tmpdir(), 'convy-history-')))
    assert.deepEqual(fetched.entries.map((e) => e.workflowRun), mainRuns.slice(1, 5).reverse())
    assert.deepEqual(fetched.entries.map((e) => e.summary.scenarios[0]!.passed), [5, 3, 5, 3])
    assert.deepEqual([fetched.runsSeen, fetched.withoutSummary, fetched.problems], [4, 0, []])
    assert.equal(fake.calls.length - calls, 2 + 2 * 4)
  })

  test('a busy repository whose listing does not reach back: the rest are looked up run by run', async () => {
    // 200 newer summaries from pull requests' runs fill the listing's two pages.
    for (let i = 0; i < 200; i++) {
      const pr = fake.world.startRun({ event: 'pull_request', headBranch: `topic-${i}`, headSha: 'd'.repeat(40) })
      fake.world.addArtifact(pr.id, NAME, summary(9, 0))
      fake.world.finishRun(pr.id, 'success')
    }
    const calls = fake.calls.length
    const fetched = await fetchHistory(createOctokit(fake.token, fake.url), search(3), await mkdtemp(join(tmpdir(), 'convy-history-')))
    assert.deepEqual(fetched.entries.map((e) => e.workflowRun), mainRuns.slice(3).reverse())
    const operations = fake.calls.slice(calls).map((c) => c.operation)
    assert.equal(operations.filter((o) => o === 'actions/list-artifacts-for-repo').length, 2)
    assert.equal(operations.filter((o) => o === 'actions/list-workflow-run-artifacts').length, 3)
  })
})

describe('a summary larger than its listing says', () => {
  let fake: FakeGitHub
  fakeGitHubForSuite(() => fake, (started) => (fake = started))

  test('is left out by its size: the download is stopped at the cap, not read whole and refused after', async () => {
    const run = fake.world.startRun({ event: 'push', headBranch: 'main', headSha: 'c'.repeat(40) })
    const artifact = fake.world.addArtifact(run.id, NAME, Buffer.alloc(8 * 2 ** 20, 7))
    // The listing lies: 900 bytes.
    artifact.size = 900
    fake.world.finishRun(run.id, 'success')
    const fetched = await fetchHistory(createOctokit(fake.token, fake.url), { owner: 'acme', repo: 'support-bot', workflow: null, branch: 'main', prefix: 'convy', agent: 'bot', runs: 1 }, await mkdtemp(join(tmpdir(), 'convy-history-')))
    assert.deepEqual(fetched.entries, [])
    assert.equal(fetched.problems.length, 1)
    assert.match(fetched.problems[0]!, new RegExp(`workflow run ${run.id}: its ${NAME.replace('+', '\\+')} was left out: artifact ${artifact.id} is larger than \\d+ bytes; its download was stopped there`))
  })
})
