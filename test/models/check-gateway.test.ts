import assert from 'node:assert/strict'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { test } from 'node:test'
import { createFetch } from '../../src/base/http/fetch.ts'
import { checkGateway } from '../../src/adapters/model-client/check-gateway.ts'
import { InputError } from '../../src/base/shared/errors.ts'
import { createMask } from '../../src/base/shared/secrets.ts'
import { startFakeModelServer } from '../../src/entry/testing/fake-model-server.ts'

const fetch = createFetch()

test('a gateway that answers and takes the key passes', async () => {
  const server = await startFakeModelServer({ apiKey: 'sk-right-key' })
  try {
    await checkGateway({ baseURL: server.url, apiKey: 'sk-right-key', fetch, mask: (t) => t })
  } finally {
    await server.close()
  }
})

test('a refused key stops the run before it starts, and the key is not printed', async () => {
  const server = await startFakeModelServer({ apiKey: 'sk-right-key' })
  try {
    await assert.rejects(checkGateway({ baseURL: server.url, apiKey: 'sk-wrong-key-123', fetch, mask: createMask(['sk-wrong-key-123']) }), (error: unknown) => {
      assert.ok(error instanceof InputError && error.exitCode === 2)
      assert.match(error.message, /refused the API key \(HTTP 401\)/)
      assert.doesNotMatch(error.message, /sk-wrong-key-123/)
      return true
    })
  } finally {
    await server.close()
  }
})

test('no gateway at the address: the cause is named, the secret address masked', async () => {
  const probe = createServer()
  await new Promise<void>((done) => probe.listen(0, '127.0.0.1', done))
  const url = `http://127.0.0.1:${(probe.address() as AddressInfo).port}/v1`
  await new Promise((done) => probe.close(done))
  await assert.rejects(checkGateway({ baseURL: url, apiKey: undefined, fetch, mask: createMask([url]) }), (error: unknown) => {
    assert.ok(error instanceof InputError)
    assert.match(error.message, /cannot be reached \(ECONNREFUSED\); check models\.base_url/)
    assert.ok(!error.message.includes(url))
    return true
  })
})

test('a gateway that lists no models, or fails for a moment, is left to the run’s retries', async () => {
  for (const status of [404, 405, 500, 503]) {
    const server = createServer((_req, res) => res.writeHead(status).end())
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
    try {
      await checkGateway({ baseURL: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, apiKey: 'k', fetch, mask: (t) => t })
    } finally {
      await new Promise((done) => server.close(done))
    }
  }
})

test('a base URL without its /v1: stopped with the address to write, only when /v1 answers where it did not', async () => {
  const server = await startFakeModelServer({ apiKey: 'sk-right-key' })
  const origin = server.url.replace(/\/v1\/?$/, '')
  assert.notEqual(origin, server.url, 'the fake serves the API under /v1')
  try {
    await assert.rejects(checkGateway({ baseURL: origin, apiKey: 'sk-right-key', fetch, mask: (t) => t }), (error: unknown) => {
      assert.ok(error instanceof InputError && error.exitCode === 2)
      assert.equal(error.message, `the model gateway at ${origin} answers 404 for /models, and ${origin}/v1/models answers: the base URL needs its /v1 (write ${origin}/v1); check models.base_url in convy.yml, or OPENAI_BASE_URL`)
      return true
    })
  } finally {
    await server.close()
  }
  // A gateway that answers 404 everywhere is not told to add /v1: nothing says it would help.
  const nothing = createServer((_req, res) => res.writeHead(404).end())
  await new Promise<void>((done) => nothing.listen(0, '127.0.0.1', done))
  try {
    await checkGateway({ baseURL: `http://127.0.0.1:${(nothing.address() as AddressInfo).port}`, apiKey: 'k', fetch, mask: (t) => t })
  } finally {
    await new Promise((done) => nothing.close(done))
  }
})

test('no key at all for a gateway that wants one is said as that, before any call, not as a refused key', async () => {
  const server = await startFakeModelServer({ apiKey: 'sk-right-key' })
  try {
    await assert.rejects(checkGateway({ baseURL: server.url, apiKey: undefined, fetch, mask: (t) => t }), (error: unknown) => {
      assert.ok(error instanceof InputError && error.exitCode === 2)
      assert.match(error.message, /wants an API key \(HTTP 401\) and none is set: set OPENAI_API_KEY, or models\.api_key in convy\.yml$/)
      return true
    })
  } finally {
    await server.close()
  }
})
