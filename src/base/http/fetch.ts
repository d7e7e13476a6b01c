import type { ConnectionOptions } from 'node:tls'
import type { Fetch } from './fetch-type.ts'
import { createH1Client } from './h1/h1-client.ts'
import { ResponseTooLarge } from './response-too-large.ts'
import type { SendWhole } from './whole.ts'

/**
 * The HTTP client every outgoing call of a run goes through: the agent's and convy-ci's own models'.
 * Requests whose answer is read whole (an agent's JSON turn, a chat completion, the gateway check) go
 * through `whole`, convy-ci's own HTTP/1.1 client (h1/). Everything else (a streaming agent's
 * server-sent events, NDJSON) goes through `fetch`, which is undici's `request` under a fetch-shaped
 * function (stream-fetch.ts), loaded the first time a run needs it: a run of JSON turns never
 * compiles undici.
 */
export type { Fetch }

/** createFetch's client: a fetch for everything, and a cheaper way for the requests of every turn. */
export interface HttpFetch extends Fetch {
  /**
   * The same request without a Request, Headers or Response: no web streams, no WebIDL checks. At a
   * few thousand requests a second these were most of the runner's own CPU (bench/runner.ts).
   */
  readonly whole: SendWhole
}

export interface HttpClientOptions {
  /** Connections kept per origin; a run opens at most about one per conversation in flight. */
  connections?: number
  /** Certificates for HTTPS: a private CA, a client certificate and key (see tls.ts). */
  tls?: ConnectionOptions
  /**
   * Bytes of one response body read at most; past that the request fails. An agent's answers are cut
   * to a much smaller size later (reply-limit.ts): this only keeps a runaway answer out of memory.
   */
  maxBodyBytes?: number
}

export { ResponseTooLarge }

export function createFetch(options: HttpClientOptions = {}): HttpFetch {
  const whole = createH1Client({ connections: options.connections ?? 256, tls: options.tls, maxBodyBytes: options.maxBodyBytes })
  let streaming: Promise<Fetch> | undefined
  const fetchLike: Fetch = async (input, init) => {
    streaming ??= import('./stream-fetch.ts').then(({ createStreamFetch }) => createStreamFetch(options))
    return (await streaming)(input, init)
  }
  return Object.assign(fetchLike, { whole })
}
