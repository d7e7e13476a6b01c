import assert from 'node:assert/strict'
import { test } from 'node:test'
import fc from 'fast-check'
import { ProtocolError, ResponseParser } from '../../src/base/http/h1/response-parser.ts'

// The HTTP/1.1 answer reader of every turn and chat completion, fed the same bytes cut in every way a
// connection may deliver them: the answer read must not depend on where the cuts fall.

/** Feeds `bytes` in pieces cut at `cuts`; returns the parser and whether the answer completed. */
function feed(bytes: Buffer, cuts: readonly number[], options: { bodyless?: boolean; endAfter?: boolean } = {}) {
  const parser = new ResponseParser({ bodyless: options.bodyless })
  const points = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b)
  let from = 0
  let complete = false
  for (const point of [...points, bytes.length]) {
    if (point <= from) continue
    complete = parser.push(bytes.subarray(from, point))
    from = point
  }
  if (options.endAfter) complete = parser.end()
  return { parser, complete, body: Buffer.concat(parser.chunks).toString('utf8') }
}

const body = fc.string({ unit: 'grapheme', maxLength: 300 })
const cuts = fc.array(fc.nat(2000), { maxLength: 12 })

function chunked(text: string, sizes: readonly number[], extension: boolean, trailer: boolean): string {
  const bytes = Buffer.from(text)
  let out = ''
  let at = 0
  for (const size of sizes) {
    if (at >= bytes.length) break
    const piece = bytes.subarray(at, at + Math.max(1, size))
    at += piece.length
    out += `${piece.length.toString(16)}${extension ? ';name=value' : ''}\r\n${piece.toString('latin1')}\r\n`
  }
  if (at < bytes.length) out += `${(bytes.length - at).toString(16)}\r\n${bytes.subarray(at).toString('latin1')}\r\n`
  return `${out}0\r\n${trailer ? 'x-checksum: abc\r\n' : ''}\r\n`
}

test('a Content-Length answer reads the same whatever the cuts, a 100 Continue before it skipped', () => {
  fc.assert(
    fc.property(body, cuts, fc.boolean(), (text, at, continued) => {
      const length = Buffer.byteLength(text)
      const wire = Buffer.from(`${continued ? 'HTTP/1.1 100 Continue\r\n\r\n' : ''}HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\n\r\n${text}`)
      const { parser, complete, body: read } = feed(wire, at)
      assert.equal(complete, true)
      assert.equal(read, text)
      assert.equal(parser.head?.status, 200)
      assert.equal(parser.head?.headers['content-type'], 'application/json')
      assert.equal(parser.head?.keepAlive, true)
    }),
    { numRuns: 300 },
  )
})

test('a chunked answer (extensions, trailers, any chunk sizes) reads the same whatever the cuts', () => {
  fc.assert(
    fc.property(body, fc.array(fc.integer({ min: 1, max: 64 }), { maxLength: 8 }), fc.boolean(), fc.boolean(), cuts, (text, sizes, extension, trailer, at) => {
      const wire = Buffer.from(`HTTP/1.1 201 Created\r\nTransfer-Encoding: chunked\r\n\r\n${chunked(text, sizes, extension, trailer)}`, 'latin1')
      const { parser, complete, body: read } = feed(wire, at)
      assert.equal(complete, true)
      assert.equal(read, text)
      assert.equal(parser.head?.status, 201)
      assert.equal(parser.head?.keepAlive, true)
    }),
    { numRuns: 300 },
  )
})

test('an answer without a length ends with the connection, and the connection is not reused', () => {
  fc.assert(
    fc.property(body, cuts, (text, at) => {
      const wire = Buffer.from(`HTTP/1.1 200 OK\r\n\r\n${text}`)
      const { parser, complete, body: read } = feed(wire, at, { endAfter: true })
      assert.equal(complete, true)
      assert.equal(read, text)
      assert.equal(parser.head?.keepAlive, false)
    }),
    { numRuns: 200 },
  )
})

test('an answer cut short is not complete: the connection ending does not finish a Content-Length or chunked body', () => {
  const short = feed(Buffer.from('HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc'), [], { endAfter: true })
  assert.equal(short.complete, false)
  const chunks = feed(Buffer.from('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nabc'), [], { endAfter: true })
  assert.equal(chunks.complete, false)
  assert.equal(new ResponseParser().started, false)
})

test('headers: names in lower case, a repeated one as a list, values as UTF-8; Connection and HTTP/1.0 decide reuse', () => {
  const wire = Buffer.from('HTTP/1.1 200 OK\r\nX-Seen: a\r\nx-seen: b\r\nX-Name: café\r\nContent-Length: 0\r\nConnection: close\r\n\r\n')
  const { parser, complete } = feed(wire, [])
  assert.equal(complete, true)
  assert.deepEqual(parser.head?.headers['x-seen'], ['a', 'b'])
  assert.equal(parser.head?.headers['x-name'], 'café')
  assert.equal(parser.head?.keepAlive, false)
  assert.equal(feed(Buffer.from('HTTP/1.0 200 OK\r\nContent-Length: 0\r\n\r\n'), []).parser.head?.keepAlive, false)
  assert.equal(feed(Buffer.from('HTTP/1.0 200 OK\r\nConnection: keep-alive\r\nContent-Length: 0\r\n\r\n'), []).parser.head?.keepAlive, true)
})

test('204, 304 and the answer to HEAD have no body, whatever their Content-Length says', () => {
  assert.equal(feed(Buffer.from('HTTP/1.1 204 No Content\r\n\r\n'), []).complete, true)
  assert.equal(feed(Buffer.from('HTTP/1.1 304 Not Modified\r\nContent-Length: 12\r\n\r\n'), []).complete, true)
  assert.equal(feed(Buffer.from('HTTP/1.1 200 OK\r\nContent-Length: 12\r\n\r\n'), [], { bodyless: true }).complete, true)
})

test('what is not HTTP/1.1 is a ProtocolError, never a guess', () => {
  const broken = [
    'SSH-2.0-OpenSSH\r\n\r\n',
    'HTTP/2 200\r\n\r\n',
    'HTTP/1.1 200 OK\r\nno colon here\r\n\r\n',
    'HTTP/1.1 200 OK\r\nContent-Length: 3, 4\r\n\r\nabc',
    'HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n',
    'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n',
    'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabcdef\r\n',
    'HTTP/1.1 200 OK\r\nContent-Length: 1\r\n\r\nab',
    'HTTP/1.1 101 Switching Protocols\r\n\r\n',
  ]
  for (const wire of broken) assert.throws(() => feed(Buffer.from(wire), []), ProtocolError, wire)
  // Headers that never end are refused past 64 KiB, not kept growing.
  const parser = new ResponseParser()
  parser.push(Buffer.from('HTTP/1.1 200 OK\r\n'))
  assert.throws(() => {
    for (let i = 0; i < 100; i++) parser.push(Buffer.from(`X-Filler-${i}: ${'x'.repeat(1000)}\r\n`))
  }, /longer than 64 KiB/)
})
