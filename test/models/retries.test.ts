import { test, describe, after } from 'node:test'
import assert from 'node:assert/strict'
import { ModelError, type ModelFailure } from '../../src/adapters/model-client/model-call.ts'
import { sleep } from '../../src/adapters/model-client/retry.ts'
import { fakeReply, startFakeModelServer } from '../../src/entry/testing/fake-model-server.ts'
import { recordingClock, recordingContext, scenario, testModels } from './helpers.ts'

function failsWith(kind: ModelFailure, check: (error: ModelError) => void = () => {}) {
  return (error: unknown) => {
    assert.ok(error instanceof ModelError, `expected a ModelError, got ${String(error)}`)
    assert.equal(error.failure, kind, error.message)
    check(error)
    return true
  }
}

describe('retries, timeouts and aborts through the real openai client', async () => {
  const server = await startFakeModelServer()
  after(() => server.close())

  test('429 with Retry-After: the pause is what the server asked for, and both tries are counted', async () => {
    const from = server.requests.length
    server.enqueue(fakeReply.rateLimited(0.25))
    const { context, records } = recordingContext()
    const clock = recordingClock()
    assert.deepEqual(await testModels(server.url, { clock }).user.next(scenario(), [], context), { text: 'Hello!', stop: false })
    assert.equal(records[0]!.tries, 2)
    assert.equal(server.requests.length - from, 2)
    assert.deepEqual(clock.sleeps, [250])
    // The call's seconds are read on the same clock, so they include the pause.
    assert.ok(records[0]!.seconds >= 0.25, `${records[0]!.seconds} s`)
  })

  test('retry-after-ms is honoured too', async () => {
    server.enqueue(fakeReply.error(429, 'slow down', { 'retry-after-ms': '150' }))
    const clock = recordingClock()
    await testModels(server.url, { clock }).user.next(scenario(), [], recordingContext().context)
    assert.deepEqual(clock.sleeps, [150])
  })

  test('a Retry-After beyond the bound waits only as long as the bound', async () => {
    server.enqueue(fakeReply.rateLimited(30))
    const clock = recordingClock()
    await testModels(server.url, { maxRetryPauseMs: 30, clock }).user.next(scenario(), [], recordingContext().context)
    assert.deepEqual(clock.sleeps, [30])
  })

  test('without Retry-After the pause doubles', async () => {
    server.enqueue(fakeReply.serverError(503), fakeReply.serverError(502), fakeReply.serverError(500))
    const { context, records } = recordingContext()
    const clock = recordingClock()
    await testModels(server.url, { retryBaseMs: 60, maxTries: 4, clock }).user.next(scenario(), [], context)
    assert.equal(records[0]!.tries, 4)
    // Each pause is its doubled value shortened by at most a fifth.
    assert.equal(clock.sleeps.length, 3, `pauses ${clock.sleeps.join(', ')} ms`)
    clock.sleeps.forEach((pause, i) => assert.ok(pause >= 60 * 2 ** i * 0.8 && pause <= 60 * 2 ** i, `pause ${i + 1} was ${pause} ms`))
  })

  test('500 then an answer: the answer is used', async () => {
    server.enqueue(fakeReply.serverError())
    const { context, records } = recordingContext()
    assert.equal((await testModels(server.url).user.next(scenario(), [], context)).text, 'Hello!')
    assert.equal(records[0]!.tries, 2)
  })

  test('when every try fails, the failure of the last one is reported, with the tries', async () => {
    const from = server.requests.length
    server.enqueue(fakeReply.rateLimited(0), fakeReply.rateLimited(0), fakeReply.rateLimited(0))
    const { context, records } = recordingContext()
    await assert.rejects(testModels(server.url, { maxTries: 3 }).user.next(scenario(), [], context), failsWith('rate_limited', (e) => assert.match(e.message, /after 3 tries/)))
    assert.equal(server.requests.length - from, 3)
    assert.deepEqual(records.map((r) => r.tries), [3])
  })

  test('a dropped connection is retried', async () => {
    server.enqueue(fakeReply.drop())
    const { context, records } = recordingContext()
    assert.equal((await testModels(server.url).user.next(scenario(), [], context)).text, 'Hello!')
    assert.equal(records[0]!.tries, 2)
  })

  test('connections dropped every time end as a connection failure', async () => {
    server.enqueue(fakeReply.drop(), fakeReply.drop())
    await assert.rejects(testModels(server.url, { maxTries: 2 }).user.next(scenario(), [], recordingContext().context), failsWith('connection'))
  })

  test('garbage (a body that is not JSON) is a bad answer, not retried', async () => {
    const from = server.requests.length
    server.enqueue(fakeReply.garbage())
    await assert.rejects(testModels(server.url).user.next(scenario(), [], recordingContext().context), failsWith('bad_answer'))
    assert.equal(server.requests.length - from, 1)
  })

  test('JSON that is not a chat completion is a bad answer, not retried', async () => {
    const from = server.requests.length
    server.enqueue(fakeReply.wrongShape())
    await assert.rejects(testModels(server.url).user.next(scenario(), [], recordingContext().context), failsWith('bad_answer', (e) => assert.match(e.message, /not a chat completion/)))
    assert.equal(server.requests.length - from, 1)
  })

  test('an answer slower than the timeout is a timeout, retried, and counted', { timeout: 60_000 }, async () => {
    // Answers due only after ten minutes: only the 0.1 s timeout can end each try.
    const from = server.requests.length
    server.enqueue(fakeReply.slow(600_000, fakeReply.text('too late')), fakeReply.slow(600_000, fakeReply.text('too late')))
    const { context, records } = recordingContext()
    await assert.rejects(testModels(server.url, { timeoutSeconds: 0.1, maxTries: 2 }).user.next(scenario(), [], context), failsWith('timeout'))
    assert.equal(records[0]!.tries, 2)
    assert.equal(server.requests.length - from, 2)
  })

  test('a body that stops half-way is cut off by the timeout too', { timeout: 60_000 }, async () => {
    // Both tries stall for good, so the timeout is what ends each (no answer has to beat it).
    const from = server.requests.length
    server.enqueue(fakeReply.stall(), fakeReply.stall())
    const { context, records } = recordingContext()
    await assert.rejects(testModels(server.url, { timeoutSeconds: 0.1, maxTries: 2 }).user.next(scenario(), [], context), failsWith('timeout'))
    assert.equal(records[0]!.tries, 2)
    assert.equal(server.requests.length - from, 2)
  })

  test('an abort during the pause ends the call at once, with the abort reason, and it is recorded', { timeout: 60_000 }, async () => {
    // The server asks for ten minutes; the clock pauses for real (the product's sleep) and the run is
    // interrupted once the pause has begun, so only the abort can end the call in the test's time.
    server.enqueue(fakeReply.rateLimited(600))
    const { context, records, abort } = recordingContext()
    const pauses: number[] = []
    const clock = {
      now: () => Date.now(),
      sleep: (ms: number, signal: AbortSignal) => {
        pauses.push(ms)
        const pausing = sleep(ms, signal)
        abort.abort(new Error('run interrupted'))
        return pausing
      },
    }
    await assert.rejects(testModels(server.url, { maxRetryPauseMs: 600_000, clock }).user.next(scenario(), [], context), /run interrupted/)
    assert.deepEqual(pauses, [600_000])
    assert.deepEqual(records.map((r) => r.tries), [1])
  })

  test('an abort during a request ends it at once', { timeout: 60_000 }, async () => {
    // An answer due after ten minutes and a timeout as long: only the abort, once the server has the
    // request, can end the call.
    const from = server.requests.length
    server.enqueue(fakeReply.slow(600_000, fakeReply.text('late')))
    const { context, records, abort } = recordingContext()
    const call = testModels(server.url, { timeoutSeconds: 600 }).user.next(scenario(), [], context)
    while (server.requests.length === from) await new Promise((tick) => setTimeout(tick, 5))
    abort.abort(new Error('run interrupted'))
    await assert.rejects(call, /run interrupted/)
    assert.equal(records.length, 1)
    assert.equal(server.requests.length - from, 1)
  })

  test('many calls pausing at once on one shared signal make Node warn about nothing', async () => {
    const warnings: Error[] = []
    const onWarning = (warning: Error) => warnings.push(warning)
    process.on('warning', onWarning)
    try {
      const { context } = recordingContext()
      // Enough tries for any order the 429s are handed out in: under load one call's retry may come
      // before another's first request, and no call may end with a 429 left for the next test.
      const { user } = testModels(server.url, { maxTries: 16 })
      server.enqueue(...Array.from({ length: 15 }, () => fakeReply.rateLimited(0.05)))
      await Promise.all(Array.from({ length: 15 }, () => user.next(scenario(), [], context)))
      await new Promise((resolve) => setImmediate(resolve))
      assert.deepEqual(warnings.map((w) => w.message), [])
    } finally {
      process.off('warning', onWarning)
    }
  })

  test('a signal aborted before the call sends nothing', async () => {
    const from = server.requests.length
    const { context, abort } = recordingContext()
    abort.abort(new Error('already stopped'))
    await assert.rejects(testModels(server.url).user.next(scenario(), [], context), /already stopped/)
    assert.equal(server.requests.length, from)
  })
})

describe('keys and rejections', async () => {
  const server = await startFakeModelServer({ apiKey: 'sk-the-right-key' })
  after(() => server.close())

  test('a wrong key is rejected at once, and the key never appears in the message', async () => {
    const { context, records } = recordingContext()
    await assert.rejects(
      testModels(server.url, { apiKey: 'sk-wrong-but-secret-key' }).user.next(scenario(), [], context),
      failsWith('rejected', (e) => {
        assert.match(e.message, /401/)
        assert.ok(!e.message.includes('sk-wrong-but-secret-key'), e.message)
      }),
    )
    assert.equal(records[0]!.tries, 1)
  })

  test('the right key is sent as a bearer token', async () => {
    assert.equal((await testModels(server.url, { apiKey: 'sk-the-right-key' }).user.next(scenario(), [], recordingContext().context)).text, 'Hello!')
  })

  test('without a key, a placeholder is sent instead of failing to start', async () => {
    const open = await startFakeModelServer()
    try {
      await testModels(open.url, { apiKey: undefined }).user.next(scenario(), [], recordingContext().context)
      assert.match(String(open.requests[0]!.headers['authorization']), /^Bearer \S+$/)
    } finally {
      await open.close()
    }
  })
})
