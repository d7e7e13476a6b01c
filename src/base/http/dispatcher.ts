import type { ConnectionOptions } from 'node:tls'
import { Agent, EnvHttpProxyAgent, ProxyAgent, type Dispatcher } from 'undici'
import { LOOPBACK_HOSTS, NO_PROXY_SETTING, proxyUrlOf, type ProxyRules, type ProxySetting } from './proxy.ts'

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
export function createDispatcher(options: DispatcherOptions): Dispatcher {
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
