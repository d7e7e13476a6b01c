import assert from 'node:assert/strict'
import { mkdtemp, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, test } from 'node:test'
import { readGitHubRun } from '../../src/adapters/github/event.ts'

async function payloadFile(payload: object): Promise<string> {
  const file = join(await mkdtemp(join(tmpdir(), 'convy-event-')), 'event.json')
  await writeFile(file, JSON.stringify(payload))
  return file
}

const base = { GITHUB_REPOSITORY: 'acme/bot', GITHUB_RUN_ID: '42' }
const pullRequest = (fork: boolean) => ({
  pull_request: {
    number: 3,
    head: { sha: 'a'.repeat(40), ref: 'topic', repo: { full_name: fork ? 'mallory/bot' : 'acme/bot' } },
    base: { ref: 'main', repo: { full_name: 'acme/bot' } },
  },
})

describe('the run the action is in: its branch, and whether it may write to the Actions cache', () => {
  test('a push is on the branch of its ref and may save', async () => {
    const run = readGitHubRun({ ...base, GITHUB_EVENT_NAME: 'push', GITHUB_REF: 'refs/heads/release/2.x' })
    assert.equal(run.branch, 'release/2.x')
    assert.equal(run.cacheReadOnlyReason, null)
    assert.equal(readGitHubRun({ ...base, GITHUB_EVENT_NAME: 'push', GITHUB_REF: 'refs/tags/v1' }).branch, null)
  })

  test("a pull request is on its head branch; a fork's may only read", async () => {
    const own = readGitHubRun({ ...base, GITHUB_EVENT_NAME: 'pull_request', GITHUB_REF: 'refs/pull/3/merge', GITHUB_EVENT_PATH: await payloadFile(pullRequest(false)) })
    assert.equal(own.branch, 'topic')
    assert.equal(own.cacheReadOnlyReason, null)
    const fork = readGitHubRun({ ...base, GITHUB_EVENT_NAME: 'pull_request', GITHUB_EVENT_PATH: await payloadFile(pullRequest(true)) })
    assert.match(fork.cacheReadOnlyReason ?? '', /fork/)
  })

  test('untrusted triggers and cache-mode: read get a read-only cache', () => {
    for (const event of ['workflow_run', 'pull_request_target', 'issue_comment']) {
      assert.match(readGitHubRun({ ...base, GITHUB_EVENT_NAME: event }).cacheReadOnlyReason ?? '', new RegExp(event))
    }
    assert.match(readGitHubRun({ ...base, GITHUB_EVENT_NAME: 'push', ACTIONS_CACHE_MODE: 'read' }).cacheReadOnlyReason ?? '', /cache-mode is read/)
    assert.equal(readGitHubRun({ ...base, GITHUB_EVENT_NAME: 'push', ACTIONS_CACHE_MODE: 'write' }).cacheReadOnlyReason, null)
  })
})
