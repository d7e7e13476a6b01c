import type { ConnectionOptions } from 'node:tls'
import { RequestTimedOut, type SendWhole, type WholeAnswer, type WholeRequest } from '../whole.ts'
import { Connection, type ConnectionOwner } from './connection.ts'
import { onAbort } from '../../shared/abort-listeners.ts'
import { settle, type Exchange } from './exchange.ts'
import { requestHead, targetOf, type Target } from './request-head.ts'
import { ResponseParser } from './response-parser.ts'

export { ConnectionClosed } from './connection.ts'

/**
 * The HTTP/1.1 client of every turn and chat completion: a request written in one piece on a kept-alive
 * connection (connection.ts), its head written once (request-head.ts), its answer read whole by
 * ResponseParser. Measured against the clients Node has, at 1,600 requests 50 at a time (`npm run
 * bench:http`): 178–210 µs of CPU a request, where undici's `request` took 508–694 and node:http
 * 474–528. At eight requests a conversation that difference was most of the runner's own CPU
 * (bench/runner.ts).
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

/** The connections to one origin, and the requests waiting for one. */
class Pool implements ConnectionOwner {
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
        stopListening: undefined,
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
      if (signal) exchange.stopListening = onAbort(signal, () => this.#abort(exchange, signal.reason))
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

