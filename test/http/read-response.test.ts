import assert from 'node:assert/strict'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { after, before, test } from 'node:test'
import { createFetch } from '../../src/base/http/fetch.ts'

// A JSON answer comes back from createFetch read already (read-response.ts): it still behaves as a
// Response to whoever reads it, the `openai` SDK and a caller that wants its stream alike.

let url = ''
const server = createServer((req, res) => {
  if (req.url === '/empty') return void res.writeHead(204).end()
  res.writeHead(201, { 'content-type': 'application/json; charset=utf-8', 'x-request-id': 'r-1' }).end(JSON.stringify({ text: 'café ☕' }))
})
before(async () => {
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
after(() => new Promise((done) => server.close(done)))

test('a JSON answer read already: status, headers, json(), then read once only', async () => {
  const fetch = createFetch()
  const response = await fetch(`${url}/json`)
  assert.equal(response.status, 201)
  assert.equal(response.ok, true)
  assert.equal(response.headers.get('x-request-id'), 'r-1')
  assert.equal(response.bodyUsed, false)
  assert.deepEqual(await response.json(), { text: 'café ☕' })
  assert.equal(response.bodyUsed, true)
  await assert.rejects(response.text(), TypeError)
})

test('text(), arrayBuffer(), clone() and the body as a stream give the same bytes', async () => {
  const fetch = createFetch()
  const response = await fetch(`${url}/json`)
  const copy = response.clone()
  assert.equal(await response.text(), '{"text":"café ☕"}')
  assert.equal(Buffer.from(await copy.arrayBuffer()).toString(), '{"text":"café ☕"}')
  const streamed = await new Response((await fetch(`${url}/json`)).body).text()
  assert.equal(streamed, '{"text":"café ☕"}')
  const empty = await fetch(`${url}/empty`)
  assert.equal(empty.status, 204)
  assert.equal(empty.body, null)
})
