import assert from 'node:assert/strict'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { after, before, test } from 'node:test'
import { createFetch, ResponseTooLarge } from '../../src/base/http/fetch.ts'
import { headerOf } from '../../src/base/http/whole.ts'

// createFetch's `whole`, the way every turn and chat completion is sent, against a real server: the
// answer as undici's `request` gave it (status, headers, the body decoded once), the size bound, and
// aborts at every moment of a request.

let url = ''
let received: { method: string; path: string; headers: IncomingMessage['headers']; body: string }[] = []
const held: ServerResponse[] = []
const server = createServer((req, res) => {
  let body = ''
  req.on('data', (chunk: Buffer) => (body += chunk.toString()))
  req.on('end', () => {
    received.push({ method: req.method!, path: req.url!, headers: req.headers, body })
    const path = req.url!.split('?')[0]
    if (path === '/chunks') {
      // A multi-byte character split across chunks, a byte-order mark first, a repeated header.
      res.writeHead(200, [['Content-Type', 'application/json'], ['X-Seen', 'a'], ['X-Seen', 'b']])
      const bytes = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"text":"caf\u00e9 \u2615"}')])
      res.write(bytes.subarray(0, 14))
      setTimeout(() => res.end(bytes.subarray(14)), 5)
    } else if (path === '/big') {
      res.writeHead(200, { 'content-type': 'text/plain' })
      for (let i = 0; i < 64; i++) res.write('x'.repeat(1024))
      res.end()
    } else if (path === '/never') {
      held.push(res)
    } else {
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"no such thing"}')
    }
  })
})

before(async () => {
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
after(async () => {
  for (const res of held) res.destroy()
  server.closeAllConnections()
  await new Promise((done) => server.close(done))
})

test('an answer is read whole: status, headers in lower case (a repeated one as a list), the body decoded once without its byte-order mark', async () => {
  received = []
  const answer = await createFetch().whole(`${url}/chunks?q=1`, { method: 'POST', headers: { 'Content-Type': 'application/json', 'X-Key': 'k' }, body: '{"a":1}' })
  assert.equal(answer.status, 200)
  assert.equal(answer.text, '{"text":"caf\u00e9 \u2615"}')
  assert.deepEqual(answer.headers['x-seen'], ['a', 'b'])
  assert.equal(headerOf(answer, 'content-type'), 'application/json')
  assert.deepEqual(
    received.map((r) => [r.method, r.path, r.headers['x-key'], r.headers['content-type'], r.body]),
    [['POST', '/chunks?q=1', 'k', 'application/json', '{"a":1}']],
  )
})

test('one client sending to several addresses in turn reaches each, its query included', async () => {
  received = []
  const fetch = createFetch()
  for (const path of ['/a?x=1', '/b', '/a?x=2', '/a?x=2']) await fetch.whole(`${url}${path}`, { method: 'GET', headers: {} })
  assert.deepEqual(
    received.map((r) => r.path),
    ['/a?x=1', '/b', '/a?x=2', '/a?x=2'],
  )
})

test('a non-2xx answer is an answer, not an error', async () => {
  const answer = await createFetch().whole(`${url}/missing`, { method: 'GET', headers: {} })
  assert.equal(answer.status, 404)
  assert.equal(answer.text, '{"error":"no such thing"}')
})

test('an answer past maxBodyBytes fails the request', async () => {
  await assert.rejects(createFetch({ maxBodyBytes: 10_000 }).whole(`${url}/big`, { method: 'GET', headers: {} }), (error: unknown) => {
    assert.ok(error instanceof ResponseTooLarge)
    assert.match(error.message, new RegExp(`^GET ${url}/big answered more than 0 MiB`))
    return true
  })
  // Under the bound the same answer is read in full.
  assert.equal((await createFetch({ maxBodyBytes: 65_536 }).whole(`${url}/big`, { method: 'GET', headers: {} })).text.length, 65_536)
})

test('an abort while the server is silent fails the request at once, with the signal’s reason', { timeout: 60_000 }, async () => {
  // The server holds /never unanswered until the file ends: only the abort, sent once the server has
  // the request, can end it, so the reason it rejects with says what ended it (no time measured).
  const controller = new AbortController()
  const reason = new Error('turn timed out')
  const silent = held.length
  const sent = createFetch().whole(`${url}/never`, { method: 'GET', headers: {}, signal: controller.signal })
  while (held.length === silent) await new Promise((tick) => setTimeout(tick, 5))
  controller.abort(reason)
  await assert.rejects(sent, (error: unknown) => error === reason)
})

test('an abort before the request is sent fails it with the reason, and nothing reaches the server', async () => {
  received = []
  const controller = new AbortController()
  const reason = new Error('interrupted')
  controller.abort(reason)
  await assert.rejects(createFetch().whole(`${url}/missing`, { method: 'GET', headers: {}, signal: controller.signal }), (error: unknown) => error === reason)
  await new Promise((done) => setTimeout(done, 50))
  assert.equal(received.length, 0)
})

test('an abort while the request waits for a connection fails it at once', async () => {
  // One connection, held by a request the server never answers: the next one waits in the queue.
  const fetch = createFetch({ connections: 1 })
  const first = new AbortController()
  const blocking = fetch.whole(`${url}/never`, { method: 'GET', headers: {}, signal: first.signal })
  const controller = new AbortController()
  const reason = new Error('interrupted while queued')
  const queued = fetch.whole(`${url}/missing`, { method: 'GET', headers: {}, signal: controller.signal })
  setTimeout(() => controller.abort(reason), 50)
  await assert.rejects(queued, (error: unknown) => error === reason)
  first.abort(new Error('done'))
  await assert.rejects(blocking)
})
