import assert from 'node:assert/strict'
import { createServer as createHttpServer } from 'node:http'
import { createServer as createHttpsServer } from 'node:https'
import { createServer, type Server, type Socket } from 'node:net'
import { after, test } from 'node:test'
import { ConnectionClosed, createH1Client } from '../../src/base/http/h1/h1-client.ts'
import { testCertificates } from '../fakes/certificates.ts'

// convy-ci's HTTP/1.1 client against servers that behave as real ones do at the edges: keep-alive and
// its end, a connection closed as a request goes out, HTTP/1.0, a body ended by the close, TLS with a
// private CA, and requests it must refuse to write.

const servers: { close(): void }[] = []
after(() => {
  for (const server of servers) server.close()
})

/** A raw TCP server: `onRequest` gets each request's text as it arrives and the socket to answer on. */
async function rawServer(onRequest: (request: string, socket: Socket, index: number) => void): Promise<{ url: string; connections: () => number; server: Server }> {
  let connections = 0
  let index = 0
  const open = new Set<Socket>()
  const server = createServer((socket) => {
    connections++
    open.add(socket)
    socket.on('close', () => open.delete(socket))
    let buffered = ''
    socket.on('data', (bytes) => {
      buffered += bytes.toString('latin1')
      // Requests here have a Content-Length body or none: answer once the whole request is in.
      for (;;) {
        const end = buffered.indexOf('\r\n\r\n')
        if (end === -1) return
        const length = Number(/content-length: (\d+)/i.exec(buffered.slice(0, end))?.[1] ?? 0)
        if (buffered.length < end + 4 + length) return
        const request = buffered.slice(0, end + 4 + length)
        buffered = buffered.slice(request.length)
        onRequest(request, socket, index++)
      }
    })
    socket.on('error', () => undefined)
  })
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
  servers.push({ close: () => (server.close(), open.forEach((s) => s.destroy())) })
  const { port } = server.address() as { port: number }
  return { url: `http://127.0.0.1:${port}`, connections: () => connections, server }
}

const ok = (body: string, extra = '') => `HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n${extra}\r\n${body}`

test('requests one after another share one kept-alive connection; the request is written as HTTP/1.1 with its length', async () => {
  const seen: string[] = []
  const server = await rawServer((request, socket) => {
    seen.push(request)
    socket.write(ok('{"ok":true}'))
  })
  const send = createH1Client()
  for (let i = 0; i < 5; i++) {
    const answer = await send(`${server.url}/chat?x=${i}`, { method: 'POST', headers: { 'Content-Type': 'application/json', 'X-Key': 'k' }, body: '{"text":"café"}' })
    assert.equal(answer.status, 200)
    assert.equal(answer.text, '{"ok":true}')
  }
  assert.equal(server.connections(), 1)
  const [head, body] = seen[4]!.split('\r\n\r\n')
  const lines = head!.split('\r\n')
  assert.equal(lines[0], 'POST /chat?x=4 HTTP/1.1')
  assert.ok(lines.includes(`host: ${server.url.slice('http://'.length)}`))
  assert.ok(lines.includes('content-type: application/json'))
  assert.ok(lines.includes('x-key: k'))
  assert.ok(lines.includes(`content-length: ${Buffer.byteLength('{"text":"café"}')}`))
  assert.equal(Buffer.from(body!, 'latin1').toString(), '{"text":"café"}')
})

test('a server that closes a kept-alive connection as the next request arrives: the request is sent once more on a new one', async () => {
  const server = await rawServer((_request, socket, index) => {
    // The second request finds its connection closed by the server without an answer.
    if (index === 1) socket.destroy()
    else socket.write(ok(`{"n":${index}}`))
  })
  const send = createH1Client()
  assert.equal((await send(`${server.url}/`, { method: 'POST', headers: {}, body: '{}' })).text, '{"n":0}')
  assert.equal((await send(`${server.url}/`, { method: 'POST', headers: {}, body: '{}' })).text, '{"n":2}')
  assert.equal(server.connections(), 2)
})

test('a new connection closed before the answer is not retried: the request fails, naming what was asked', async () => {
  const server = await rawServer((_request, socket) => socket.destroy())
  await assert.rejects(createH1Client()(`${server.url}/turn`, { method: 'POST', headers: {}, body: '{}' }), (error: unknown) => {
    assert.ok(error instanceof ConnectionClosed || (error as NodeJS.ErrnoException).code === 'ECONNRESET')
    return true
  })
  assert.equal(server.connections(), 1)
})

test('an answer cut off halfway fails the request, even on a reused connection', async () => {
  const server = await rawServer((_request, socket, index) => {
    if (index === 0) socket.write(ok('{"n":0}'))
    else socket.end('HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n{"partial"')
  })
  const send = createH1Client()
  await send(`${server.url}/`, { method: 'GET', headers: {} })
  await assert.rejects(send(`${server.url}/turn`, { method: 'GET', headers: {} }), /GET http:\/\/127\.0\.0\.1:\d+\/turn: the other side closed the connection before the answer was complete/)
  assert.equal(server.connections(), 1)
})

test('Connection: close, HTTP/1.0 and a body ended by the close: each answer read whole, and the connection not reused', async () => {
  const answers = [
    ok('{"a":1}', 'Connection: close\r\n'),
    'HTTP/1.0 200 OK\r\nContent-Length: 7\r\n\r\n{"b":2}',
    'HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\nuntil the end',
  ]
  const server = await rawServer((_request, socket, index) => {
    socket.write(answers[index]!)
    if (index === 2) socket.end()
  })
  const send = createH1Client()
  assert.equal((await send(`${server.url}/`, { method: 'GET', headers: {} })).text, '{"a":1}')
  assert.equal((await send(`${server.url}/`, { method: 'GET', headers: {} })).text, '{"b":2}')
  assert.equal((await send(`${server.url}/`, { method: 'GET', headers: {} })).text, 'until the end')
  assert.equal(server.connections(), 3)
})

test('a Keep-Alive hint shorter than the time between requests: the idle connection is not reused', async () => {
  const server = await rawServer((_request, socket) => socket.write(ok('{}', 'Keep-Alive: timeout=1\r\n')))
  const send = createH1Client()
  await send(`${server.url}/`, { method: 'GET', headers: {} })
  // The hint less its margin is 0 s: any later request takes a new connection.
  await new Promise((done) => setTimeout(done, 20))
  await send(`${server.url}/`, { method: 'GET', headers: {} })
  assert.equal(server.connections(), 2)
})

test('a chunked answer from a real node:http server, its headers as undici gives them', async () => {
  const server = createHttpServer((_req, res) => {
    res.setHeader('Set-Cookie', ['a=1', 'b=2'])
    res.write('{"text":')
    res.end('"chunked"}')
  })
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
  servers.push({ close: () => (server.closeAllConnections(), server.close()) })
  const { port } = server.address() as { port: number }
  const answer = await createH1Client()(`http://127.0.0.1:${port}/`, { method: 'GET', headers: {} })
  assert.equal(answer.headers['transfer-encoding'], 'chunked')
  assert.deepEqual(answer.headers['set-cookie'], ['a=1', 'b=2'])
  assert.equal(answer.text, '{"text":"chunked"}')
})

test('HTTPS with a private CA: trusted when given, refused when not', async () => {
  const certificates = testCertificates()
  const server = createHttpsServer({ cert: certificates.serverCert, key: certificates.serverKey }, (_req, res) => res.end('{"secure":true}'))
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
  servers.push({ close: () => (server.closeAllConnections(), server.close()) })
  const { port } = server.address() as { port: number }
  for (const host of ['127.0.0.1', 'localhost']) {
    const answer = await createH1Client({ tls: { ca: certificates.caCert } })(`https://${host}:${port}/`, { method: 'GET', headers: {} })
    assert.equal(answer.text, '{"secure":true}')
  }
  await assert.rejects(createH1Client()(`https://127.0.0.1:${port}/`, { method: 'GET', headers: {} }), /self-signed|unable to verify|certificate/i)
})

test('a second connection to an HTTPS server resumes the TLS session of the first', async () => {
  const certificates = testCertificates()
  const resumed: boolean[] = []
  const held: (() => void)[] = []
  const server = createHttpsServer({ cert: certificates.serverCert, key: certificates.serverKey }, (req, res) => {
    // The first answer is held until the second request arrives, so the second needs a connection of its own.
    if (req.url === '/hold') held.push(() => res.end('{"held":true}'))
    else {
      res.end('{"ok":true}')
      for (const release of held.splice(0)) release()
    }
  })
  server.on('secureConnection', (socket) => resumed.push(socket.isSessionReused()))
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
  servers.push({ close: () => (server.closeAllConnections(), server.close()) })
  const { port } = server.address() as { port: number }
  const send = createH1Client({ tls: { ca: certificates.caCert } })
  await send(`https://localhost:${port}/first`, { method: 'GET', headers: {} })
  const both = await Promise.all([send(`https://localhost:${port}/hold`, { method: 'GET', headers: {} }), send(`https://localhost:${port}/second`, { method: 'GET', headers: {} })])
  assert.deepEqual(both.map((a) => a.text), ['{"held":true}', '{"ok":true}'])
  assert.deepEqual(resumed, [false, true])
})

test('an IPv6 address: brackets in the URL and in Host, none to connect', async (t) => {
  const server = createServer((socket) => socket.once('data', (bytes) => socket.end(ok(JSON.stringify({ host: /host: (.*)\r\n/.exec(bytes.toString())![1] })))))
  const listening = await new Promise<boolean>((done) => server.once('error', () => done(false)).listen(0, '::1', () => done(true)))
  if (!listening) return t.skip('no IPv6 loopback on this machine')
  servers.push({ close: () => server.close() })
  const { port } = server.address() as { port: number }
  const answer = await createH1Client()(`http://[::1]:${port}/`, { method: 'GET', headers: {} })
  assert.equal(JSON.parse(answer.text).host, `[::1]:${port}`)
})

test('a header that would split the request, or a name that is not a token, is refused before anything is written', async () => {
  const server = await rawServer((_request, socket) => socket.write(ok('{}')))
  const send = createH1Client()
  await assert.rejects(send(`${server.url}/`, { method: 'GET', headers: { 'x-token': 'a\r\nx-injected: 1' } }), /header x-token holds a line break/)
  await assert.rejects(send(`${server.url}/`, { method: 'GET', headers: { 'bad name': 'v' } }), /is not a header name/)
  await assert.rejects(send('ftp://127.0.0.1/', { method: 'GET', headers: {} }), /only http: and https:/)
  assert.equal(server.connections(), 0)
})

test('a server that answers garbage fails the request with what it broke, and the connection is dropped', async () => {
  const server = await rawServer((_request, socket, index) => socket.write(index === 0 ? 'HELLO\r\n\r\n' : ok('{"fine":true}')))
  const send = createH1Client()
  await assert.rejects(send(`${server.url}/`, { method: 'GET', headers: {} }), /not valid HTTP\/1\.1: the status line is "HELLO"/)
  assert.equal((await send(`${server.url}/`, { method: 'GET', headers: {} })).text, '{"fine":true}')
  assert.equal(server.connections(), 2)
})

test('an idle connection does not keep the process alive, and connections past the limit wait their turn', async () => {
  const order: number[] = []
  const server = await rawServer((request, socket) => {
    const n = Number(/\/(\d+)/.exec(request)![1])
    setTimeout(() => {
      order.push(n)
      socket.write(ok(`{"n":${n}}`))
    }, 10)
  })
  const send = createH1Client({ connections: 2 })
  const answers = await Promise.all([0, 1, 2, 3, 4, 5].map((n) => send(`${server.url}/${n}`, { method: 'GET', headers: {} })))
  assert.deepEqual(
    answers.map((a) => JSON.parse(a.text) as { n: number }).map((a) => a.n),
    [0, 1, 2, 3, 4, 5],
  )
  assert.equal(server.connections(), 2)
  // Nothing else is pending here: an idle socket still ref'd would keep this check from ever ending.
  const handles = (process as unknown as { _getActiveHandles(): unknown[] })._getActiveHandles().filter((h) => (h as { remotePort?: number }).remotePort === Number(new URL(server.url).port))
  assert.ok(handles.every((h) => (h as { _handle?: { hasRef(): boolean } })._handle?.hasRef() === false))
})
