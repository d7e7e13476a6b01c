import { InputError } from '../shared/errors.ts'

/**
 * Which proxy a request goes through. The variables are read as GitHub's toolkit reads them
 * (@actions/http-client), so the action reaches its agents and models the way octokit and the artifact
 * client in the same job reach GitHub; the decision per request is undici's EnvHttpProxyAgent's, which
 * fetch.ts builds from these rules (`proxyFor` says what it decides, for messages and tests):
 *
 * - `https_proxy`, else `HTTPS_PROXY`; `http_proxy`, else `HTTP_PROXY` (lower case first; an empty
 *   value counts as unset); an https URL goes through the https proxy, or the http one when there is
 *   no https proxy (undici's rule); an http URL through the http proxy;
 * - `no_proxy`, else `NO_PROXY`: a list of hosts, `host:port`s, `.suffix`es or `*` (commas or spaces);
 *   a host also matches its subdomains, `.corp` matches `corp` too; case does not matter;
 * - localhost, 127.0.0.1 and [::1] never go through a proxy (a service container of the job);
 * - a value without a scheme is taken as http://.
 *
 * An agent or `models` may name its own proxy in convy.yml (`proxy:`): every request of it goes there,
 * whatever the environment says, or straight to the server with `proxy: none`.
 */
export interface ProxyRules {
  http: URL | undefined
  https: URL | undefined
  /** The entries of NO_PROXY, in lower case. */
  bypass: readonly string[]
}

/** The environment as a run reads it (process.env and .env). */
export type ProxyEnvironment = Readonly<Record<string, string | undefined>>

/** `proxy:` in convy.yml: a URL, or `none` for no proxy at all. Absent: the environment decides. */
export type ProxySetting = string | undefined

export const NO_PROXY_SETTING = 'none'

/** Never reached through a proxy; added to the NO_PROXY undici is given. */
export const LOOPBACK_HOSTS = ['localhost', '127.0.0.1', '[::1]'] as const

export function proxyRulesFrom(env: ProxyEnvironment): ProxyRules {
  const read = (lower: string, upper: string): URL | undefined => {
    const name = env[lower] ? lower : upper
    const value = env[name]
    return value ? proxyUrlOf(value, name) : undefined
  }
  const noProxy = env['no_proxy'] || env['NO_PROXY'] || ''
  return {
    http: read('http_proxy', 'HTTP_PROXY'),
    https: read('https_proxy', 'HTTPS_PROXY'),
    bypass: noProxy
      .split(/[,\s]/)
      .map((entry) => entry.trim().toLowerCase())
      .filter((entry) => entry !== ''),
  }
}

/** The proxy for a request to `target`, or undefined to go straight to it. */
export function proxyFor(target: URL, setting: ProxySetting, rules: ProxyRules): URL | undefined {
  if (setting === NO_PROXY_SETTING) return undefined
  if (setting !== undefined) return proxyUrlOf(setting, 'proxy')
  if (bypasses(target, rules.bypass)) return undefined
  return target.protocol === 'https:' ? (rules.https ?? rules.http) : rules.http
}

/**
 * The proxy a request to `target` goes through, as a person should be told of it: its address (the
 * password replaced) and where it was set (`HTTPS_PROXY`, or `proxy:` in convy.yml); null without one.
 */
export function proxyInUse(target: URL, setting: ProxySetting, env: ProxyEnvironment): { address: string; from: string } | null {
  const proxy = proxyFor(target, setting, proxyRulesFrom(env))
  if (!proxy) return null
  if (setting !== undefined) return { address: describeProxy(proxy), from: '`proxy:` in convy.yml' }
  const names = [['https_proxy', 'HTTPS_PROXY'], ['http_proxy', 'HTTP_PROXY']].slice(target.protocol === 'https:' ? 0 : 1)
  const from = names.flat().find((name) => env[name]) ?? 'HTTP_PROXY'
  return { address: describeProxy(proxy), from }
}

/** A proxy's address as it may be shown: its password, if any, replaced. */
export function describeProxy(proxy: URL): string {
  if (!proxy.password) return proxy.href
  const shown = new URL(proxy.href)
  shown.password = '***'
  return shown.href
}

/** What a mask must hide of the proxies a run may use: their passwords, encoded and decoded. */
export function proxySecrets(env: ProxyEnvironment, setting: ProxySetting): string[] {
  const values = [env['http_proxy'], env['HTTP_PROXY'], env['https_proxy'], env['HTTPS_PROXY'], setting]
  const secrets: string[] = []
  for (const value of values) {
    if (!value || value === NO_PROXY_SETTING) continue
    const password = parseLoosely(value)?.password
    if (password) secrets.push(password, safeDecode(password))
  }
  return secrets
}

/** True for a `proxy:` convy.yml may hold: `none`, or an http(s) address. */
export function isProxySetting(value: string): boolean {
  if (value === NO_PROXY_SETTING) return true
  const url = parseLoosely(value)
  return url !== undefined && (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== ''
}

/** A proxy's address as a URL, or an input error naming where it was set. */
export function proxyUrlOf(value: string, name: string): URL {
  const url = parseLoosely(value)
  if (url === undefined || (url.protocol !== 'http:' && url.protocol !== 'https:') || url.hostname === '') {
    const shown = url ? describeProxy(url) : value.replace(/\/\/[^@/]*@/, '//***@')
    throw new InputError(`${name}: ${JSON.stringify(shown)} is not a proxy address; write http://host:port (or https://)`)
  }
  return url
}

function parseLoosely(value: string): URL | undefined {
  // As the toolkit does, a value without a scheme (proxy.corp:3128) is taken as http://value.
  const candidate = /^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? value : `http://${value}`
  try {
    return new URL(candidate)
  } catch {
    return undefined
  }
}

/** As undici's EnvHttpProxyAgent matches NO_PROXY, with loopback hosts added. */
function bypasses(target: URL, bypass: readonly string[]): boolean {
  const host = target.hostname.toLowerCase()
  if ((LOOPBACK_HOSTS as readonly string[]).includes(host) || bypass.includes('*')) return true
  const port = Number(target.port) || (target.protocol === 'https:' ? 443 : 80)
  return bypass.some((entry) => {
    const [, name = entry, entryPort] = /^(.+):(\d+)$/.exec(entry) ?? []
    if (entryPort !== undefined && Number(entryPort) !== port) return false
    const bare = name.replace(/^\*?\./, '')
    return host === bare || host.endsWith(`.${bare}`)
  })
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text)
  } catch {
    return text
  }
}
