import type { Dispatcher } from 'undici'
import { createDispatcher, type DispatcherOptions } from './dispatcher.ts'
import type { Fetch } from './fetch-type.ts'
import { ResponseTooLarge } from './response-too-large.ts'
import { streamFetch } from './stream-fetch.ts'
import { dispatchWhole } from './dispatch-whole.ts'
import type { SendWhole } from './whole.ts'

/**
 * The HTTP client every outgoing call of a run goes through: the agent's and convy-ci's own models',
 * all over one undici dispatcher (dispatcher.ts: connection pools, proxies, certificates). Requests
 * whose answer is read whole (an agent's JSON turn, the gateway check) go through `whole`, a handler
 * on undici's `Dispatcher#dispatch` (dispatch-whole.ts); everything
 * else (the `openai` client's calls, a streaming agent's server-sent events, NDJSON) through the
 * client itself, a fetch-shaped function over undici's `request` (stream-fetch.ts). undici's own
 * `fetch` would serve too, at about 1.3 ms more CPU per call (its Request, Headers and web streams):
 * a fifth of a conversation's budget at five model calls (docs/performance.md).
 */
export type { Fetch }

export interface HttpFetch extends Fetch {
  /** The same request without a Request, Headers or Response, its answer read whole. */
  readonly whole: SendWhole
  /** The dispatcher, for a client that takes a fetch and its options (the `openai` SDK): `init.dispatcher`. */
  readonly dispatcher: Dispatcher
}

export interface HttpClientOptions extends Partial<DispatcherOptions> {
  /**
   * Bytes of one response body read at most; past that the request fails. An agent's answers are cut
   * to a much smaller size later (reply-limit.ts): this only keeps a runaway answer out of memory.
   */
  maxBodyBytes?: number
}

export { ResponseTooLarge }

export function createFetch(options: HttpClientOptions = {}): HttpFetch {
  const dispatcher = createDispatcher({ ...options, proxyRules: options.proxyRules ?? { http: undefined, https: undefined, bypass: [] } })
  const limit = options.maxBodyBytes
  return Object.assign(streamFetch(dispatcher, limit), { whole: dispatchWhole(dispatcher, limit), dispatcher })
}
