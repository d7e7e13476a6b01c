import assert from 'node:assert/strict'
import { mkdtemp } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, test } from 'node:test'
import { createFileCache } from '../../src/adapters/model-client/model-cache.ts'
import type { CallRecord, ModelCallContext } from '../../src/adapters/model-client/model-call.ts'
import { fakeReply, scriptedUser, startFakeModelServer, type FakeModelServer } from '../../src/entry/testing/fake-model-server.ts'
import { scenario, testModels } from './helpers.ts'

function contextFor(scope: string | undefined, records: CallRecord[]): ModelCallContext {
  return { signal: new AbortController().signal, record: (call) => records.push(call), ...(scope === undefined ? {} : { cacheScope: scope }) }
}

describe('the model cache and rate limits, through the real client', () => {
  let server: FakeModelServer
  before(async () => {
    server = await startFakeModelServer({ user: scriptedUser(['hello there']) })
  })
  after(async () => server.close())

  test('a second call with the same scope is answered from the cache; another attempt is not', async () => {
    const cache = createFileCache(await mkdtemp(join(tmpdir(), 'convy-cache-')), 'readwrite')
    const { user } = testModels(server.url, { cache })
    const records: CallRecord[] = []
    const sent = () => server.requests.filter((r) => r.kind === 'user').length
    const start = sent()
    const first = await user.next(scenario(), [], contextFor('fp#1', records))
    const again = await user.next(scenario(), [], contextFor('fp#1', records))
    assert.deepEqual(again, first)
    assert.equal(sent() - start, 1, 'the repeat reached the server')
    assert.deepEqual(records.map((r) => [r.tries, Boolean(r.cached)]), [[1, false], [0, true]])

    await user.next(scenario(), [], contextFor('fp#2', records))
    assert.equal(sent() - start, 2, 'attempt 2 must not share attempt 1’s answers')
    await user.next(scenario(), [], contextFor(undefined, records))
    assert.equal(sent() - start, 3, 'a call without a scope is never cached')
  })

  test('read mode uses entries but adds none', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'convy-cache-'))
    const writer = testModels(server.url, { cache: createFileCache(dir, 'write') })
    await writer.user.next(scenario(), [], contextFor('fp#1', []))
    const reader = testModels(server.url, { cache: createFileCache(dir, 'read') })
    const start = server.requests.length
    await reader.user.next(scenario(), [], contextFor('fp#1', []))
    await reader.user.next(scenario(), [], contextFor('fp#9', []))
    await reader.user.next(scenario(), [], contextFor('fp#9', []))
    assert.equal(server.requests.length - start, 2, 'read mode stored fp#9')
  })

  test('a 429 pauses every call to the model, not just the one that got it', async () => {
    server.reset()
    // A clock whose sleeps are held until the test ends them: the pause is a state the test looks at,
    // not a second it waits through (and a busy machine cannot stretch or shorten).
    let ahead = 0
    const held: { ms: number; wake: () => void }[] = []
    const clock = {
      now: () => Date.now() + ahead,
      sleep: (ms: number) => new Promise<void>((wake) => void held.push({ ms, wake })),
    }
    const { user } = testModels(server.url, { maxTries: 4, retryBaseMs: 5, clock, limits: { 'fake-user': { concurrency: 8 } } })
    server.enqueue(fakeReply.rateLimited(1))
    const records: CallRecord[] = []
    const sentByUser = () => server.requests.filter((r) => r.kind === 'user').length
    // The first call gets the 429 (Retry-After: 1 s) and pauses; calls made during its pause must wait too.
    const first = user.next(scenario(), [], contextFor(undefined, records))
    while (held.length === 0) await new Promise((r) => setTimeout(r, 5))
    let answered = 0
    const others = [1, 2, 3].map(() => user.next(scenario(), [], contextFor(undefined, records)).finally(() => answered++))
    // Until the three wait on the clock, or (were they not paused) have their answers.
    while (held.length < 4 && answered < 3) await new Promise((r) => setTimeout(r, 5))
    assert.equal(sentByUser(), 1, 'no call went out during the pause')
    assert.equal(held[0]!.ms, 1000)
    assert.ok(held.slice(1).every((sleep) => sleep.ms > 0 && sleep.ms <= 1000), `the others waited ${held.map((h) => h.ms).join(', ')} ms`)
    // The pause over: every call goes out, the first for its second try.
    ahead += 1000
    for (const sleep of held.splice(0)) sleep.wake()
    assert.equal((await Promise.all(others)).length, 3)
    await first
    assert.equal(sentByUser(), 5)
    assert.deepEqual(records.map((r) => r.tries).sort(), [1, 1, 1, 2])
  })
})
