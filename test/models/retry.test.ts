import { test, describe } from 'node:test'
import assert from 'node:assert/strict'
import { pauseBeforeRetry, retryAfterMs, sleep } from '../../src/adapters/model-client/retry.ts'

const policy = { maxTries: 5, baseMs: 100, maxPauseMs: 1000 }
const now = Date.parse('2026-01-01T00:00:00Z')

describe('Retry-After', () => {
  test('seconds, milliseconds and HTTP dates are read', () => {
    assert.equal(retryAfterMs(new Headers({ 'retry-after': '3' }), now), 3000)
    assert.equal(retryAfterMs(new Headers({ 'retry-after-ms': '250', 'retry-after': '3' }), now), 250)
    assert.equal(retryAfterMs(new Headers({ 'retry-after': 'Thu, 01 Jan 2026 00:00:07 GMT' }), now), 7000)
  })

  test('a date in the past means now; unreadable or missing values mean nothing was asked', () => {
    assert.equal(retryAfterMs(new Headers({ 'retry-after': 'Wed, 31 Dec 2025 23:59:00 GMT' }), now), 0)
    assert.equal(retryAfterMs(new Headers({ 'retry-after': 'soon' }), now), undefined)
    assert.equal(retryAfterMs(new Headers({ 'retry-after': '-4' }), now), undefined)
    assert.equal(retryAfterMs(new Headers(), now), undefined)
    assert.equal(retryAfterMs(undefined, now), undefined)
  })
})

describe('pause before a retry', () => {
  test('doubles from the base, shortened by at most a fifth, within the bound', () => {
    const longest = () => 0
    const shortest = () => 0.999999
    assert.deepEqual([1, 2, 3, 4, 5].map((n) => pauseBeforeRetry(policy, n, undefined, longest)), [100, 200, 400, 800, 1000])
    assert.deepEqual([1, 2, 3].map((n) => Math.round(pauseBeforeRetry(policy, n, undefined, shortest))), [80, 160, 320])
  })

  test("the server's Retry-After wins over the doubling, within the bound", () => {
    assert.equal(pauseBeforeRetry(policy, 1, new Headers({ 'retry-after': '0.5' })), 500)
    assert.equal(pauseBeforeRetry(policy, 1, new Headers({ 'retry-after': '120' })), 1000)
  })
})

describe('sleep', () => {
  test('rejects with the abort reason as soon as the signal aborts', async () => {
    // Ten minutes asleep, aborted mid-pause: the rejection must come before the event loop turns once
    // more, an order rather than a time, so a busy machine cannot tell it apart.
    const controller = new AbortController()
    const reason = new Error('stop')
    const pausing = sleep(600_000, controller.signal).then(
      () => 'slept',
      (error: unknown) => (error === reason ? 'rejected with the reason' : `rejected with ${String(error)}`),
    )
    await new Promise((turn) => setImmediate(turn))
    controller.abort(reason)
    const nextTurn = new Promise((turn) => setImmediate(() => turn('the event loop turned first')))
    assert.equal(await Promise.race([pausing, nextTurn]), 'rejected with the reason')
  })
})
