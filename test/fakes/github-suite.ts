import assert from 'node:assert/strict'
import { after, afterEach, before } from 'node:test'
import { startFakeGitHub, type FakeGitHub, type FakeGitHubOptions } from './github-server.ts'

/**
 * The fake GitHub of a suite: started before its tests, closed after them, and after each test no
 * request or answer that GitHub would not send or accept. `get` and `set` are the suite's own
 * variable, so a test may close the fake and start another in its place (the one then current is
 * checked and closed). Register it before the suite's other `before` hooks, which then find it started.
 */
export function fakeGitHubForSuite(get: () => FakeGitHub | undefined, set: (fake: FakeGitHub) => void, options: FakeGitHubOptions = {}): void {
  before(async () => {
    set(await startFakeGitHub(options))
  })
  after(async () => {
    await get()?.close()
  })
  afterEach(() => {
    assert.deepEqual(get()?.violations, [], 'every request and answer must be one GitHub would send')
  })
}
