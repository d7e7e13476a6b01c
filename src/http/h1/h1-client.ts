import { createRequire } from 'node:module'
import { connect as connectTcp, isIP, type Socket } from 'node:net'
import type { ConnectionOptions } from 'node:tls'
import { ResponseTooLarge } from '../response-too-large.ts'
import { RequestTimedOut, type SendWhole, type WholeAnswer, type WholeRequest } from '../whole.ts'
import { ProtocolError, ResponseParser, type ResponseHeaders } from './response-parser.ts'

/**
 * The HTTP/1.1 client of every turn and chat completion: a request written in one piece on a kept-alive
 * connection, its answer read whole by ResponseParser. Measured against the clients Node has, at 1,600
 * requests 50 at a time (npm run bench:http): about 210 µs of CPU a request,
 * where undici took 500–650 and node:http about 500. At eight requests a conversation
 * that difference was most of the runner's own CPU (bench/runner.ts).
 *
 * What it leaves out, on purpose: HTTP/2, proxies, compression (it asks for none), upgrades,
 * pipelining. Streams (server-sent events) still go through undici (fetch.ts).
 */
export interface H1ClientOptions {
  /** Connections kept per origin; requests past them wait for one to be free. */
  connections?: number
  /** Certificates for HTTPS (tls.ts). */
  tls?: ConnectionOptions
  /** Bytes of one answer's body read at most; past that the request fails with ResponseTooLarge. */
  maxBodyBytes?: number
  /** How long an idle connection is reused when the server gives no Keep-Alive hint. */
  idleMs?: number
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
const HEADER_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/
const HEADER_VALUE = /[\r\n\0]/
// Headers the client writes itself, from the request's own URL and body.
const FRAMING = new Set(['content-length', 'transfer-encoding', 'connection', 'keep-alive', 'upgrade'])

export function createH1Client(options: H1ClientOptions = {}): SendWhole {
  const pools = new Map<string, Pool>()
  // A client mostly sends to one URL (the chat completions endpoint, an agent's address): parsed once.
  let last: { url: string; target: Target } | undefined
  return async (url, request) => {
    if (last?.url !== url) last = { url, target: targetOf(url) }
    const { target } = last
    let pool = pools.get(target.origin)
    if (!pool) {
      pool = new Pool(target, options)
      pools.set(target.origin, pool)
    }
    return pool.send(target, url, request)
  }
}

interface Target {
  origin: string
  secure: boolean
  host: string
  port: number
  /** The Host header. */
  authority: string
  path: string
}

function targetOf(url: string): Target {
  const parsed = new URL(url)
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new TypeError(`${url}: only http: and https: addresses can be sent to`)
  const secure = parsed.protocol === 'https:'
  const port = parsed.port === '' ? (secure ? 443 : 80) : Number(parsed.port)
  // An IPv6 literal comes bracketed in the URL, and must not be to connect.
  const host = parsed.hostname.startsWith('[') ? parsed.hostname.slice(1, -1) : parsed.hostname
  return { origin: parsed.origin, secure, host, port, authority: parsed.host, path: `${parsed.pathname}${parsed.search}` }
}

/** A request on its way: the answer so far and how it ends. */
interface Exchange {
  what: string
  head: string
  body: string | undefined
  signal: AbortSignal | undefined
  parser: ResponseParser
  resolve: (answer: WholeAnswer) => void
  reject: (error: unknown) => void
  bodyless: boolean
  onAbort: () => void
  /** The connection writing or reading it, for an abort to cut. */
  connection: Connection | null
  /** Sent again once on a new connection if a reused one closes before any byte of the answer. */
  retried: boolean
  /** Answered, failed or aborted: an abort and an answer can cross, and only the first counts. */
  settled: boolean
  timer: ReturnType<typeof setTimeout> | undefined
}

class Pool {
  readonly #idle: Connection[] = []
  readonly #waiting: Exchange[] = []
  #open = 0
  readonly #max: number
  /** The last TLS session the server gave, for the next connection to resume. */
  tlsSession: Buffer | undefined

  constructor(
    readonly target: Target,
    readonly options: H1ClientOptions,
  ) {
    this.#max = options.connections ?? 256
  }

  send(target: Target, url: string, request: WholeRequest): Promise<WholeAnswer> {
    return new Promise<WholeAnswer>((resolve, reject) => {
      const { signal } = request
      if (signal?.aborted) return reject(signal.reason)
      const bodyless = request.method === 'HEAD'
      const exchange: Exchange = {
        what: `${request.method} ${url}`,
        head: '',
        body: request.body,
        signal,
        parser: new ResponseParser({ bodyless }),
        resolve,
        reject,
        bodyless,
        onAbort: () => this.#abort(exchange, signal!.reason),
        connection: null,
        retried: false,
        settled: false,
        timer: undefined,
      }
      try {
        exchange.head = requestHead(request, target)
      } catch (error) {
        return reject(error)
      }
      signal?.addEventListener('abort', exchange.onAbort, { once: true })
      const { timeoutMs } = request
      if (timeoutMs !== undefined) exchange.timer = setTimeout(() => this.#abort(exchange, new RequestTimedOut(timeoutMs)), timeoutMs)
      this.#dispatch(exchange)
    })
  }

  #dispatch(exchange: Exchange): void {
    let connection: Connection | undefined
    const now = Date.now()
    while ((connection = this.#idle.pop())) {
      if (connection.usableAt(now)) break
      connection.destroy()
    }
    if (!connection) {
      if (this.#open >= this.#max) {
        this.#waiting.push(exchange)
        return
      }
      this.#open++
      connection = new Connection(this)
    }
    connection.start(exchange)
  }

  /** The connection's exchange ended well: the connection serves the next request, or waits. */
  released(connection: Connection): void {
    const next = this.#waiting.shift()
    if (next) connection.start(next)
    else this.#idle.push(connection)
  }

  closed(connection: Connection): void {
    this.#open--
    const at = this.#idle.indexOf(connection)
    if (at !== -1) this.#idle.splice(at, 1)
    const next = this.#waiting.shift()
    if (next) this.#dispatch(next)
  }

  /** A closed connection that never answered: the exchange gets one more try on a new one. */
  retry(exchange: Exchange): void {
    exchange.retried = true
    exchange.parser = new ResponseParser({ bodyless: exchange.bodyless })
    this.#dispatch(exchange)
  }

  #abort(exchange: Exchange, reason: unknown): void {
    const queued = this.#waiting.indexOf(exchange)
    if (queued !== -1) this.#waiting.splice(queued, 1)
    settle(exchange, () => exchange.reject(reason))
    // Half a request or half an answer leaves the connection unusable.
    exchange.connection?.destroy()
  }
}

class Connection {
  readonly #socket: Socket
  #exchange: Exchange | null = null
  #reused = false
  #idleSince = 0
  #idleMs: number
  #closed = false

  constructor(readonly pool: Pool) {
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

/** Ends an exchange once: an abort and an answer can cross. */
function settle(exchange: Exchange, end: () => void): void {
  if (exchange.settled) return
  exchange.settled = true
  exchange.signal?.removeEventListener('abort', exchange.onAbort)
  clearTimeout(exchange.timer)
  end()
}

function requestHead(request: WholeRequest, target: Target): string {
  const { lines, host } = headerLines(request.headers, () => `${request.method} ${target.origin}${target.path}`)
  let head = `${request.method} ${target.path} HTTP/1.1\r\n${host ? '' : `host: ${target.authority}\r\n`}${lines}`
  if (request.body !== undefined) head += `content-length: ${Buffer.byteLength(request.body)}\r\n`
  else if (request.method === 'POST' || request.method === 'PUT' || request.method === 'PATCH') head += 'content-length: 0\r\n'
  return `${head}\r\n`
}

// A client sends the same headers object again and again (a chat client's, an agent's): checked and
// written out once per object.
const written = new WeakMap<object, { lines: string; host: boolean }>()

function headerLines(headers: Readonly<Record<string, string>>, what: () => string): { lines: string; host: boolean } {
  const known = written.get(headers)
  if (known) return known
  // Names that differ only in case are one header, as with fetch's Headers: their values are joined.
  const merged = new Map<string, string>()
  for (const [name, value] of Object.entries(headers)) {
    if (!HEADER_NAME.test(name)) throw new TypeError(`${what()}: ${JSON.stringify(name)} is not a header name`)
    if (HEADER_VALUE.test(value)) throw new TypeError(`${what()}: header ${name} holds a line break or a NUL byte`)
    const key = name.toLowerCase()
    if (FRAMING.has(key)) continue
    const earlier = merged.get(key)
    merged.set(key, earlier === undefined ? value : `${earlier}, ${value}`)
  }
  let lines = ''
  for (const [name, value] of merged) lines += `${name}: ${value}\r\n`
  const result = { lines, host: merged.has('host') }
  written.set(headers, result)
  return result
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
