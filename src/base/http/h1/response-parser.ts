/**
 * Reads one HTTP/1.1 response from the bytes of a connection, as they arrive: the status line and
 * headers, then the body framed by Content-Length, by chunks, or by the end of the connection. It is
 * pure (no socket, no timers), so every way of cutting the bytes can be tested (test/http/h1-parser).
 *
 * Only what a client that reads answers whole needs: no upgrades, no pipelining (bytes after the
 * answer are an error), no trailers kept. Malformed input is a ProtocolError, never a guess.
 */

/** Header names in lower case; a repeated header becomes a list, as undici's parseHeaders gives them. */
export type ResponseHeaders = Record<string, string | string[]>

export interface ResponseHead {
  status: number
  headers: ResponseHeaders
  /** The connection may carry another request after this answer. */
  keepAlive: boolean
}

/** The server broke HTTP/1.1: the connection cannot be trusted for another request. */
export class ProtocolError extends Error {
  readonly code = 'HPE_INVALID'
  constructor(message: string) {
    super(`the server's answer is not valid HTTP/1.1: ${message}`)
    this.name = 'ProtocolError'
  }
}

const CRLF_CRLF = Buffer.from('\r\n\r\n')
const CR = 0x0d
const LF = 0x0a
const MAX_HEAD_BYTES = 64 * 1024
const MAX_CHUNK_LINE_BYTES = 4 * 1024
const STATUS_LINE = /^HTTP\/1\.([01]) (\d{3})(?: .*)?$/
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/

type State =
  | { kind: 'head' }
  | { kind: 'length'; left: number }
  | { kind: 'chunk-size' }
  | { kind: 'chunk-data'; left: number }
  | { kind: 'chunk-end' }
  | { kind: 'trailers' }
  | { kind: 'until-close' }
  | { kind: 'done' }

export class ResponseParser {
  head: ResponseHead | null = null
  /** The body's bytes so far, in order. */
  readonly chunks: Buffer[] = []
  bodyBytes = 0
  #state: State = { kind: 'head' }
  /** Bytes of a line not yet complete (the head, a chunk-size line, a trailer). */
  #pending: Buffer | null = null
  readonly #bodyless: boolean

  /** `bodyless`: the request was HEAD, whose answer has headers only. */
  constructor(options: { bodyless?: boolean } = {}) {
    this.#bodyless = options.bodyless ?? false
  }

  get done(): boolean {
    return this.#state.kind === 'done'
  }

  /** True once any byte of the answer arrived: before that a closed connection may be retried. */
  get started(): boolean {
    return this.head !== null || this.#pending !== null
  }

  /** Reads the next bytes of the connection. True when the answer is complete. */
  push(bytes: Buffer): boolean {
    let at = 0
    while (at < bytes.length) {
      const state = this.#state
      switch (state.kind) {
        case 'head':
          at = this.#readHead(bytes, at)
          break
        case 'length':
        case 'chunk-data': {
          const take = Math.min(state.left, bytes.length - at)
          this.#body(bytes.subarray(at, at + take))
          at += take
          state.left -= take
          // A Content-Length body ends here; a chunk is followed by its CRLF.
          if (state.left === 0) this.#state = state.kind === 'length' ? { kind: 'done' } : { kind: 'chunk-end' }
          break
        }
        case 'chunk-size':
        case 'chunk-end':
        case 'trailers':
          at = this.#pending === null ? this.#readLineFast(bytes, at, state.kind) : this.#readLine(bytes, at, state.kind)
          break
        case 'until-close':
          this.#body(at === 0 ? bytes : bytes.subarray(at))
          at = bytes.length
          break
        case 'done':
          throw new ProtocolError('more bytes came after the end of the answer')
      }
    }
    return this.#state.kind === 'done'
  }

  /** The connection ended. True when that completes the answer (a body read until the close). */
  end(): boolean {
    if (this.#state.kind === 'until-close') this.#state = { kind: 'done' }
    return this.#state.kind === 'done'
  }

  #body(bytes: Buffer): void {
    if (bytes.length === 0) return
    this.chunks.push(bytes)
    this.bodyBytes += bytes.length
  }

  #readHead(bytes: Buffer, at: number): number {
    const joined = this.#pending === null ? (at === 0 ? bytes : bytes.subarray(at)) : Buffer.concat([this.#pending, bytes.subarray(at)])
    const searchFrom = this.#pending === null ? 0 : Math.max(0, this.#pending.length - 3)
    const end = joined.indexOf(CRLF_CRLF, searchFrom)
    if (end === -1) {
      if (joined.length > MAX_HEAD_BYTES) throw new ProtocolError(`the headers are longer than ${MAX_HEAD_BYTES / 1024} KiB`)
      this.#pending = Buffer.from(joined)
      return bytes.length
    }
    const consumed = end + 4 - (this.#pending?.length ?? 0)
    this.#pending = null
    // UTF-8, as undici decodes header values; CR, LF and the colon are single bytes in it.
    const head = parseHead(joined.toString('utf8', 0, end))
    // 1xx answers (100 Continue, 103 Early Hints) come before the real one and are skipped.
    if (head.status < 200) {
      if (head.status === 101) throw new ProtocolError('the server switched protocols')
      return at + consumed
    }
    this.head = head
    this.#state = this.#bodyState(head)
    return at + consumed
  }

  #bodyState(head: ResponseHead): State {
    if (this.#bodyless || head.status === 204 || head.status === 304) return { kind: 'done' }
    const encoding = head.headers['transfer-encoding']
    if (encoding !== undefined) {
      const codings = String(encoding).toLowerCase().split(',').map((c) => c.trim())
      if (codings.at(-1) !== 'chunked') {
        // Without chunked last, only the end of the connection ends the body.
        head.keepAlive = false
        return { kind: 'until-close' }
      }
      return { kind: 'chunk-size' }
    }
    const length = head.headers['content-length']
    if (length !== undefined) {
      const left = contentLength(length)
      return left === 0 ? { kind: 'done' } : { kind: 'length', left }
    }
    head.keepAlive = false
    return { kind: 'until-close' }
  }

  /**
   * The usual case of #readLine, without making strings: the whole line is in `bytes` and is a bare
   * hexadecimal size, an empty line, or the CRLF after a chunk. Anything else goes the general way.
   */
  #readLineFast(bytes: Buffer, at: number, kind: 'chunk-size' | 'chunk-end' | 'trailers'): number {
    if (kind !== 'chunk-size') {
      if (bytes[at] !== CR || bytes[at + 1] !== LF) return this.#readLine(bytes, at, kind)
      this.#state = kind === 'trailers' ? { kind: 'done' } : { kind: 'chunk-size' }
      return at + 2
    }
    let size = 0
    let i = at
    for (; i < bytes.length && i - at < 12; i++) {
      const digit = hexValue(bytes[i]!)
      if (digit < 0) break
      size = size * 16 + digit
    }
    if (i === at || bytes[i] !== CR || bytes[i + 1] !== LF) return this.#readLine(bytes, at, kind)
    this.#state = size === 0 ? { kind: 'trailers' } : { kind: 'chunk-data', left: size }
    return i + 2
  }

  /** A CRLF-ended line of the chunked framing; returns where the next bytes start. */
  #readLine(bytes: Buffer, at: number, kind: 'chunk-size' | 'chunk-end' | 'trailers'): number {
    const newline = bytes.indexOf(0x0a, at)
    if (newline === -1) {
      const part = bytes.subarray(at)
      this.#pending = this.#pending === null ? Buffer.from(part) : Buffer.concat([this.#pending, part])
      if (this.#pending.length > MAX_CHUNK_LINE_BYTES) throw new ProtocolError('a chunk line is too long')
      return bytes.length
    }
    const part = bytes.subarray(at, newline + 1)
    const line = (this.#pending === null ? part : Buffer.concat([this.#pending, part])).toString('latin1')
    this.#pending = null
    if (!line.endsWith('\r\n')) throw new ProtocolError('a chunk line does not end with CRLF')
    const text = line.slice(0, -2)
    if (kind === 'chunk-end') {
      if (text !== '') throw new ProtocolError('a chunk is longer than its size')
      this.#state = { kind: 'chunk-size' }
    } else if (kind === 'trailers') {
      if (text === '') this.#state = { kind: 'done' }
    } else {
      // The size may be followed by extensions (";name=value"), which mean nothing here.
      const size = text.split(';', 1)[0]!.trim()
      if (!/^[0-9a-fA-F]{1,12}$/.test(size)) throw new ProtocolError(`a chunk size is not a hexadecimal number: ${JSON.stringify(text.slice(0, 40))}`)
      const left = Number.parseInt(size, 16)
      this.#state = left === 0 ? { kind: 'trailers' } : { kind: 'chunk-data', left }
    }
    return newline + 1
  }
}

/** The value of a hexadecimal digit's byte, or -1. */
function hexValue(byte: number): number {
  if (byte >= 0x30 && byte <= 0x39) return byte - 0x30
  const lower = byte | 0x20
  return lower >= 0x61 && lower <= 0x66 ? lower - 0x61 + 10 : -1
}

function parseHead(text: string): ResponseHead {
  const firstBreak = text.indexOf('\r\n')
  const statusLine = firstBreak === -1 ? text : text.slice(0, firstBreak)
  const status = STATUS_LINE.exec(statusLine)
  if (!status) throw new ProtocolError(`the status line is ${JSON.stringify(statusLine.slice(0, 80))}`)
  const headers: ResponseHeaders = {}
  let at = firstBreak === -1 ? text.length : firstBreak + 2
  while (at < text.length) {
    const lineEnd = text.indexOf('\r\n', at)
    const end = lineEnd === -1 ? text.length : lineEnd
    const colon = text.indexOf(':', at)
    if (colon <= at || colon > end) throw new ProtocolError(`a header line is ${JSON.stringify(text.slice(at, Math.min(end, at + 80)))}`)
    const name = text.slice(at, colon)
    if (!TOKEN.test(name)) throw new ProtocolError(`a header line is ${JSON.stringify(text.slice(at, Math.min(end, at + 80)))}`)
    const key = name.toLowerCase()
    const value = text.slice(colon + 1, end).trim()
    const earlier = headers[key]
    if (earlier === undefined) headers[key] = value
    else if (Array.isArray(earlier)) earlier.push(value)
    else headers[key] = [earlier, value]
    at = end + 2
  }
  const connection = headers['connection']
  const http10 = status[1] === '0'
  const keepAlive = connection === undefined ? !http10 : http10 ? /\bkeep-alive\b/i.test(String(connection)) : !/\bclose\b/i.test(String(connection))
  return { status: Number(status[2]), headers, keepAlive }
}

/** Content-Length as one number: repeated or listed values must agree (RFC 9110 §8.6). */
function contentLength(value: string | string[]): number {
  if (typeof value === 'string' && /^\d{1,15}$/.test(value)) return Number(value)
  const values = (Array.isArray(value) ? value : [value]).flatMap((v) => v.split(',')).map((v) => v.trim())
  if (!values.every((v) => /^\d{1,15}$/.test(v)) || new Set(values).size !== 1) throw new ProtocolError(`Content-Length is not one number: ${String(value)}`)
  return Number(values[0])
}
