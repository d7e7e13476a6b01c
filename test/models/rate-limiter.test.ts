import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { RateLimiter, type Clock } from '../../src/adapters/model-client/rate-limiter.ts'

/** A clock whose sleeps pass at once, moving its time forward: a minute of limits in no time. */
function fakeClock(): Clock & { slept: number[] } {
  let now = 1_000_000
  const slept: number[] = []
  return {
    slept,
    now: () => now,
    sleep: async (ms) => {
      slept.push(ms)
      now += ms
    },
  }
}

const never = new AbortController().signal

describe('rate limits shared by a run', () => {
  test('requests per minute: the third of 2/min waits for the first to leave the window', async () => {
    const clock = fakeClock()
    const limiter = new RateLimiter({ requestsPerMinute: 2 }, clock)
    const started: number[] = []
    for (let i = 0; i < 5; i++) {
      const release = await limiter.acquire(never)
      started.push(clock.now())
      release()
    }
    const t0 = started[0]!
    assert.deepEqual(started.map((t) => t - t0), [0, 0, 60_000, 60_000, 120_000])
  })

  test('tokens per minute: calls wait once the minute’s tokens are spent', async () => {
    const clock = fakeClock()
    const limiter = new RateLimiter({ tokensPerMinute: 1000 }, clock)
    const t0 = clock.now()
    ;(await limiter.acquire(never))()
    limiter.recordTokens(600)
    ;(await limiter.acquire(never))()
    limiter.recordTokens(600)
    const release = await limiter.acquire(never)
    release()
    assert.equal(clock.now() - t0, 60_000, 'the third call waited for the first 600 tokens to age out')
  })

  test('concurrency: never more calls in flight than allowed, and waiters go in order', async () => {
    const limiter = new RateLimiter({ concurrency: 2 })
    let inFlight = 0
    let most = 0
    const order: number[] = []
    await Promise.all(
      Array.from({ length: 8 }, async (_, i) => {
        const release = await limiter.acquire(never)
        order.push(i)
        inFlight++
        most = Math.max(most, inFlight)
        await new Promise((r) => setTimeout(r, 5))
        inFlight--
        release()
      }),
    )
    assert.equal(most, 2)
    assert.deepEqual(order, [0, 1, 2, 3, 4, 5, 6, 7])
  })

  test('a 429 pauses every later call to the model', async () => {
    const clock = fakeClock()
    const limiter = new RateLimiter({}, clock)
    const t0 = clock.now()
    limiter.pause(5_000)
    ;(await limiter.acquire(never))()
    ;(await limiter.acquire(never))()
    assert.equal(clock.now() - t0, 5_000)
    assert.deepEqual(clock.slept, [5_000])
  })

  test('an abort while waiting for a slot rejects and frees nothing it did not hold', async () => {
    const limiter = new RateLimiter({ concurrency: 1 })
    const holder = await limiter.acquire(never)
    const controller = new AbortController()
    const waiting = limiter.acquire(controller.signal)
    controller.abort(new Error('stop'))
    await assert.rejects(waiting, /stop/)
    holder()
    const next = await limiter.acquire(never)
    next()
  })
})
