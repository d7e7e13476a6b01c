import { request, type Dispatcher } from 'undici'
import { createDispatcher, type DispatcherOptions } from './dispatcher.ts'
import type { Fetch } from './fetch-type.ts'
import { ResponseTooLarge } from './response-too-large.ts'
import { readAtMost, streamFetch, untilAborted } from './stream-fetch.ts'
import { RequestTimedOut, type SendWhole } from './whole.ts'
import { withDeadline } from '../shared/deadline.ts'

/**
 * The HTTP client every outgoing call of a run goes through: the agent's and convy-ci's own models',
 * all over one undici dispatcher (dispatcher.ts: connection pools, proxies, certificates). Requests
 * whose answer is read whole (an agent's JSON turn, the gateway check) go through `whole`; everything
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
  const whole: SendWhole = async (url, { method, headers, body, signal, timeoutMs }) => {
    const deadline = timeoutMs === undefined ? undefined : withDeadline(signal, timeoutMs, () => new RequestTimedOut(timeoutMs))
    const what = `${method} ${url}`
    const stop = deadline?.signal ?? signal
    try {
      const exchange = async () => {
        const answer = await request(url, { dispatcher, method: method as Dispatcher.HttpMethod, headers, body, signal: stop })
        const bytes = limit === undefined ? await answer.body.arrayBuffer() : await readAtMost(answer.body, limit, what)
        // As a fetch's text(): UTF-8, without a byte-order mark.
        return { status: answer.statusCode, headers: answer.headers, text: new TextDecoder().decode(bytes) }
      }
      return await untilAborted(exchange(), stop)
    } catch (error) {
      if (deadline?.expired && !signal?.aborted) throw new RequestTimedOut(timeoutMs!)
      throw error
    } finally {
      deadline?.end()
    }
  }
  return Object.assign(streamFetch(dispatcher, limit), { whole, dispatcher })
}

