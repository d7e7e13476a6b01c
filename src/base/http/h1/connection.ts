import { createRequire } from 'node:module'
import { connect as connectTcp, isIP, type Socket } from 'node:net'
import type { ConnectionOptions } from 'node:tls'
import { ResponseTooLarge } from '../response-too-large.ts'
import { settle, type Exchange } from './exchange.ts'
import { ProtocolError, type ResponseHeaders } from './response-parser.ts'
import type { Target } from './request-head.ts'

/** What a connection needs from the pool that owns it. */
export interface ConnectionOwner {
  readonly target: Target
  readonly options: { tls?: ConnectionOptions; maxBodyBytes?: number; idleMs?: number }
  /** The last TLS session the server gave, for the next connection to resume. */
  tlsSession: Buffer | undefined
  /** The connection's exchange ended well: it serves the next request, or waits. */
  released(connection: Connection): void
  closed(connection: Connection): void
  /** A reused connection closed before any byte of the answer: the exchange gets one more try. */
  retry(exchange: Exchange): void
}

/** The server closed the connection before its answer was complete. */
export class ConnectionClosed extends Error {
  readonly code = 'ECONNRESET'
  constructor(what: string) {
    super(`${what}: the other side closed the connection before the answer was complete`)
    this.name = 'ConnectionClosed'
  }
}

// node:tls (and the crypto it needs) is loaded at the first https: request, not with the client: a
// run against local agents and models never needs it (bench/runner.ts, first request).
const loadBuiltin = createRequire(import.meta.url)
let tls: typeof import('node:tls') | undefined

// Plain connections read into this one buffer (net's `onread`) and the bytes are copied out at once:
// no Readable stream and no new buffer per read. Reads happen one at a time on this thread, so every
// connection can share it.
const readBuffer = Buffer.alloc(64 * 1024)

// A server's Keep-Alive hint is its own idle timeout: stop reusing a connection a second before it,
// so a request is not written into a connection the server is closing (undici keeps the same margin).
const HINT_MARGIN_MS = 1000
// Without a hint, an idle connection is reused for 30 s, as the undici pool before this client was
// set: a model gateway's connection survives a slow agent's turn. A server that closed it sooner is
// met by the one retry on a new connection (Connection.#fail).
const DEFAULT_IDLE_MS = 30_000

/** One kept-alive connection: it writes a request, reads its answer, then waits for the next. */
export class Connection {
  readonly #socket: Socket
  #exchange: Exchange | null = null
  #reused = false
  #idleSince = 0
  #idleMs: number
  #closed = false

  constructor(readonly pool: ConnectionOwner) {
    const { target, options } = pool
    this.#idleMs = options.idleMs ?? DEFAULT_IDLE_MS
    this.#socket = target.secure
      ? (tls ??= loadBuiltin('node:tls') as typeof import('node:tls')).connect({
          host: target.host,
          port: target.port,
          servername: isIP(target.host) === 0 ? target.host : undefined,
          ALPNProtocols: ['http/1.1'],
          // A new connection to a server seen before resumes its TLS session: no full handshake.
          session: pool.tlsSession,
          ...options.tls,
        })
      : connectTcp({ host: target.host, port: target.port, onread: { buffer: readBuffer, callback: (size, into) => this.#onRead(size, into) } })
    this.#socket.setNoDelay(true)
    if (target.secure) {
      this.#socket.on('data', (bytes: Buffer) => this.#onData(bytes))
      this.#socket.on('session', (session: Buffer) => (pool.tlsSession = session))
    }
    this.#socket.on('end', () => this.#onEnd())
    this.#socket.on('error', (error) => this.#fail(error))
    this.#socket.on('close', () => this.#onClose())
  }

  usableAt(now: number): boolean {
    return !this.#closed && now - this.#idleSince < this.#idleMs
  }

  start(exchange: Exchange): void {
    this.#exchange = exchange
    exchange.connection = this
    this.#socket.ref()
    this.#socket.write(exchange.body === undefined ? exchange.head : exchange.head + exchange.body)
  }

  destroy(): void {
    this.#socket.destroy()
  }

  #onRead(size: number, into: Uint8Array): boolean {
    this.#onData(Buffer.from(into.subarray(0, size)))
    // Keep reading: returning false would pause the socket.
    return true
  }

  #onData(bytes: Buffer): void {
    const exchange = this.#exchange
    if (exchange === null) {
      // Nothing was asked: a server that talks out of turn cannot be trusted with the next request.
      this.destroy()
      return
    }
    let complete: boolean
    try {
      complete = exchange.parser.push(bytes)
    } catch (error) {
      this.#fail(error)
      return
    }
    const limit = this.pool.options.maxBodyBytes
    if (limit !== undefined && exchange.parser.bodyBytes > limit) {
      this.#fail(new ResponseTooLarge(exchange.what, limit))
      return
    }
    if (complete) this.#complete(exchange)
  }

  #complete(exchange: Exchange): void {
    const { head, chunks, bodyBytes } = exchange.parser
    this.#exchange = null
    exchange.connection = null
    settle(exchange, () => exchange.resolve({ status: head!.status, headers: head!.headers, text: decode(chunks, bodyBytes) }))
    if (!head!.keepAlive || this.#closed) {
      this.destroy()
      return
    }
    this.#reused = true
    this.#idleSince = Date.now()
    const hint = keepAliveHint(head!.headers)
    if (hint !== undefined) this.#idleMs = Math.max(0, hint - HINT_MARGIN_MS)
    // An idle connection does not keep the process alive.
    this.#socket.unref()
    this.pool.released(this)
  }

  #onEnd(): void {
    const exchange = this.#exchange
    if (exchange !== null && exchange.parser.end()) this.#complete(exchange)
    this.#closed = true
    this.destroy()
  }

  #fail(error: unknown): void {
    const exchange = this.#exchange
    this.#exchange = null
    this.#closed = true
    this.destroy()
    if (exchange === null || exchange.settled) return
    exchange.connection = null
    // A kept-alive connection the server closed as the request went out: the server never saw it.
    if (this.#reused && !exchange.retried && !exchange.parser.started && !(error instanceof ProtocolError)) {
      this.pool.retry(exchange)
      return
    }
    settle(exchange, () => exchange.reject(error))
  }

  #onClose(): void {
    if (this.#exchange !== null) this.#fail(new ConnectionClosed(this.#exchange.what))
    this.#closed = true
    this.pool.closed(this)
  }
}

/** `Keep-Alive: timeout=5` in milliseconds, if the server said. */
function keepAliveHint(headers: ResponseHeaders): number | undefined {
  const value = headers['keep-alive']
  if (value === undefined) return undefined
  const timeout = /\btimeout=(\d+)/i.exec(String(value))
  return timeout ? Number(timeout[1]) * 1000 : undefined
}

/** UTF-8 without a leading byte-order mark, as undici's `body.text()` decodes. */
function decode(chunks: readonly Buffer[], size: number): string {
  if (size === 0) return ''
  const bytes = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks as Buffer[], size)
  const bom = bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf
  return bytes.toString('utf8', bom ? 3 : 0)
}
