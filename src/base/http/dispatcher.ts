import type { ConnectionOptions } from 'node:tls'
import { Agent, Pool, ProxyAgent, type Dispatcher } from 'undici'
import { proxyFor, type ProxyRules, type ProxySetting } from './proxy.ts'

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
 * The one undici dispatcher a client sends through: a pool of kept-alive connections per origin, or,
 * where the proxy rules say so, the proxy's. undici's Agent asks `factory` once per origin, so the
 * rules are applied once per server, not per request. Through a proxy, an http server is asked in
 * the proxy's own request (absolute-form, as curl does: the proxy sees every request); an https
 * server through a CONNECT tunnel, with the same certificates as without a proxy.
 */
export function createDispatcher(options: DispatcherOptions): Dispatcher {
  const connections = options.connections ?? 256
  const proxies = new Map<string, ProxyAgent>()
  const viaProxy = (proxy: URL): ProxyAgent => {
    let agent = proxies.get(proxy.href)
    if (!agent) {
      agent = new ProxyAgent({
        uri: proxy.href,
        proxyTunnel: false,
        connections,
        keepAliveTimeout: KEEP_ALIVE_MS,
        ...(options.tls ? { requestTls: options.tls } : {}),
      })
      proxies.set(proxy.href, agent)
    }
    return agent
  }
  return new Agent({
    connections,
    keepAliveTimeout: KEEP_ALIVE_MS,
    ...(options.tls ? { connect: options.tls } : {}),
    factory: (origin, poolOptions) => {
      const proxy = proxyFor(new URL(String(origin)), options.proxy, options.proxyRules)
      return proxy ? viaProxy(proxy) : new Pool(origin, poolOptions as Pool.Options)
    },
  })
}
