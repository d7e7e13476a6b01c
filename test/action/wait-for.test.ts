import assert from 'node:assert/strict'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { describe, test } from 'node:test'
import { waitFor } from '../../src/entry/action/wait-for.ts'
import { InputError } from '../../src/base/shared/errors.ts'

async function listen(handler: (status: { calls: number }) => number): Promise<{ url: string; calls: () => number; close: () => Promise<void> }> {
  const state = { calls: 0 }
  const server = createServer((_req, res) => {
    state.calls++
    res.writeHead(handler(state)).end('…')
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/health`,
    calls: () => state.calls,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  }
}

describe('wait-for', () => {
  test('an agent still starting (503) is waited for; any answer below 500 counts, a 404 too', async () => {
    const server = await listen(({ calls }) => (calls < 3 ? 503 : 404))
    try {
      const answered = await waitFor({ url: server.url, timeoutSeconds: 5, intervalMs: 20, signal: new AbortController().signal })
      assert.equal(answered.status, 404)
      assert.equal(server.calls(), 3)
    } finally {
      await server.close()
    }
  })

  test('nothing listening: it gives up at the timeout, naming the URL and the last error', async () => {
    const server = await listen(() => 200)
    await server.close()
    // Each try is refused at once, so a timeout of two seconds holds several tries even on a busy
    // machine, and the last one's error is the refusal, not a try of our own cut short.
    let tries = 0
    const counting: typeof fetch = (input, init) => {
      tries++
      return fetch(input, init)
    }
    await assert.rejects(waitFor({ url: server.url, timeoutSeconds: 2, intervalMs: 50, signal: new AbortController().signal, fetch: counting }), (error: unknown) => {
      assert.ok(error instanceof InputError)
      assert.equal(error.message, `wait-for: ${server.url} did not answer within 2 s (last: ECONNREFUSED); is the agent started, and on that port?`)
      return true
    })
    assert.ok(tries >= 2, `tried ${tries} time(s)`)
  })

  test('a try that times out is named by its message, not by a DOMException number', async () => {
    const server = createServer(() => {
      // Never answers: every try ends at its own timeout.
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/health`
    try {
      await assert.rejects(waitFor({ url, timeoutSeconds: 0.1, intervalMs: 10, signal: new AbortController().signal }), (error: unknown) => {
        assert.ok(error instanceof InputError)
        assert.match(error.message, /\(last: The operation was aborted due to timeout\)/)
        return true
      })
    } finally {
      server.closeAllConnections()
      await new Promise((resolve) => server.close(resolve))
    }
  })

  test('a cancelled job stops waiting at once', async () => {
    const server = await listen(() => 502)
    const controller = new AbortController()
    setTimeout(() => controller.abort(new Error('cancelled')), 50)
    try {
      await assert.rejects(waitFor({ url: server.url, timeoutSeconds: 30, intervalMs: 1000, signal: controller.signal }), /cancelled/)
    } finally {
      await server.close()
    }
  })
})
