import type { ConnectionOptions } from 'node:tls'
import { Agent, EnvHttpProxyAgent, ProxyAgent, type Dispatcher } from 'undici'
import { LOOPBACK_HOSTS, NO_PROXY_SETTING, proxyUrlOf, type ProxyRules, type ProxySetting } from './proxy.ts'
import type { Fetch } from './fetch-type.ts'
import { streamFetch } from './stream-fetch.ts'
import { dispatchWhole } from './dispatch-whole.ts'
import { ResponseTooLarge, type SendWhole } from './whole.ts'

/**
 * The HTTP client every outgoing call of a run goes through: the agent's and convy-ci's own models',
 * all over one undici dispatcher (createDispatcher below: connection pools, proxies, certificates). Requests
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

export interface DispatcherOptions {
  /** Connections kept per origin; a run opens at most about one per conversation in flight. */
  connections?: number
  /** Certificates for HTTPS: a private CA, a client certificate and key (see tls.ts). */
  tls?: ConnectionOptions
  /** The proxy rules of the environment (proxy.ts) and the `proxy:` of convy.yml, if any. */
  proxyRules: ProxyRules
  proxy?: ProxySetting
}

const KEEP_ALIVE_MS = 30_000

/**
 * The one undici dispatcher a client sends through, made of undici's own agents with the rules given
 * as their options (nothing of the environment is read here: proxy.ts read it, .env included):
 *
 * - no proxy: an Agent (kept-alive connection pools per origin);
 * - `proxy:` in convy.yml: a ProxyAgent for every request;
 * - HTTPS_PROXY, HTTP_PROXY, NO_PROXY: an EnvHttpProxyAgent, loopback hosts added to its NO_PROXY.
 *
 * Through a proxy an http server is asked in the proxy's own request (absolute-form, as curl does: the
 * proxy sees every request, `proxyTunnel: false`); an https server through a CONNECT tunnel, with the
 * same certificates as without a proxy (`requestTls`).
 */
function createDispatcher(options: DispatcherOptions): Dispatcher {
  const common = {
    connections: options.connections ?? 256,
    keepAliveTimeout: KEEP_ALIVE_MS,
    proxyTunnel: false,
    ...(options.tls ? { connect: options.tls, requestTls: options.tls } : {}),
  }
  const { proxy, proxyRules } = options
  if (proxy === NO_PROXY_SETTING) return new Agent(common)
  if (proxy !== undefined) return new ProxyAgent({ ...common, uri: proxyUrlOf(proxy, 'proxy').href })
  if ((!proxyRules.http && !proxyRules.https) || proxyRules.bypass.includes('*')) return new Agent(common)
  return new EnvHttpProxyAgent({
    ...common,
    // '' rather than undefined: undici would read process.env for a proxy not given.
    httpProxy: proxyRules.http?.href ?? '',
    httpsProxy: proxyRules.https?.href ?? '',
    noProxy: [...LOOPBACK_HOSTS, ...proxyRules.bypass].join(','),
  })
}
