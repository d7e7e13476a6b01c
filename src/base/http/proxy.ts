import { InputError } from '../shared/errors.ts'

/**
 * Which proxy a request goes through, decided as GitHub's toolkit decides it (@actions/http-client
 * `getProxyUrl` and `checkBypass`), so the action reaches its agents and models the way octokit and
 * the artifact client in the same job reach GitHub:
 *
 * - an https URL goes through `https_proxy`, else `HTTPS_PROXY`; an http URL through `http_proxy`,
 *   else `HTTP_PROXY` (lower case first; an empty value counts as unset);
 * - `no_proxy`, else `NO_PROXY`: a comma-separated list of hosts, `host:port`s, `.suffix`es or `*`;
 *   a host also matches its subdomains; case does not matter;
 * - localhost, 127.x.x.x and [::1] never go through a proxy (a service container of the job);
 * - a value without a scheme is taken as http://.
 *
 * An agent or `models` may name its own proxy in convy.yml (`proxy:`): every request of it goes there,
 * whatever the environment says, or straight to the server with `proxy: none`.
 */
export interface ProxyRules {
  http: URL | undefined
  https: URL | undefined
  /** The entries of NO_PROXY, in upper case. */
  bypass: readonly string[]
}

/** The environment as a run reads it (process.env and .env). */
export type ProxyEnvironment = Readonly<Record<string, string | undefined>>

/** `proxy:` in convy.yml: a URL, or `none` for no proxy at all. Absent: the environment decides. */
export type ProxySetting = string | undefined

export const NO_PROXY_SETTING = 'none'

export function proxyRulesFrom(env: ProxyEnvironment): ProxyRules {
  const read = (lower: string, upper: string): URL | undefined => {
    const name = env[lower] ? lower : upper
    const value = env[name]
    return value ? proxyUrl(value, name) : undefined
  }
  const noProxy = env['no_proxy'] || env['NO_PROXY'] || ''
  return {
    http: read('http_proxy', 'HTTP_PROXY'),
    https: read('https_proxy', 'HTTPS_PROXY'),
    bypass: noProxy
      .split(',')
      .map((entry) => entry.trim().toUpperCase())
      .filter((entry) => entry !== ''),
  }
}

/** The proxy for a request to `target`, or undefined to go straight to it. */
export function proxyFor(target: URL, setting: ProxySetting, rules: ProxyRules): URL | undefined {
  if (setting === NO_PROXY_SETTING) return undefined
  if (setting !== undefined) return proxyUrl(setting, 'proxy')
  if (bypasses(target, rules.bypass)) return undefined
  return target.protocol === 'https:' ? rules.https : rules.http
}

/**
 * The proxy a request to `target` goes through, as a person should be told of it: its address (the
 * password replaced) and where it was set (`HTTPS_PROXY`, or `proxy:` in convy.yml); null without one.
 */
export function proxyInUse(target: URL, setting: ProxySetting, env: ProxyEnvironment): { address: string; from: string } | null {
  const proxy = proxyFor(target, setting, proxyRulesFrom(env))
  if (!proxy) return null
  if (setting !== undefined) return { address: describeProxy(proxy), from: '`proxy:` in convy.yml' }
  const [lower, upper] = target.protocol === 'https:' ? ['https_proxy', 'HTTPS_PROXY'] : ['http_proxy', 'HTTP_PROXY']
  return { address: describeProxy(proxy), from: env[lower] ? lower : upper }
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

function proxyUrl(value: string, name: string): URL {
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

function bypasses(target: URL, bypass: readonly string[]): boolean {
  const host = target.hostname.toUpperCase()
  if (host === 'LOCALHOST' || host.startsWith('127.') || host === '[::1]' || host === '[0:0:0:0:0:0:0:1]') return true
  const port = target.port || (target.protocol === 'https:' ? '443' : '80')
  const names = [host, `${host}:${port}`]
  return bypass.some((entry) => entry === '*' || names.some((name) => name === entry || name.endsWith(entry.startsWith('.') ? entry : `.${entry}`)))
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text)
  } catch {
    return text
  }
}
