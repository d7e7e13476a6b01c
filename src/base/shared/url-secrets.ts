/**
 * What of an address can carry a secret. A wrong gateway or agent address must be readable in an
 * error (`http://127.0.0.1:1/v1` cannot be reached), so an address read from the environment is not
 * masked whole: only its user and password, its query values and its fragment are. Scheme, host,
 * port and path stay visible. A value that is not an http(s) address is a secret as a whole.
 */
export function secretPartsOf(value: string): string[] {
  let url: URL
  try {
    url = new URL(value)
  } catch {
    return [value]
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return [value]
  const parts = [url.username, url.password, decodeURIComponent(url.username), decodeURIComponent(url.password), url.hash.slice(1)]
  for (const [, query] of url.searchParams) parts.push(query)
  // The raw query values too (as written, before decoding), and each raw `name=value` pair's value.
  for (const pair of url.search.slice(1).split('&')) parts.push(pair.slice(pair.indexOf('=') + 1))
  return parts.filter((part) => part !== '')
}

/** The OpenAI API's address, which the models are called at when neither models.base_url nor OPENAI_BASE_URL is set. */
const DEFAULT_MODELS_URL = 'https://api.openai.com/v1'

/**
 * Which endpoint a model is asked at, as an identity to compare and to write in run.json: host (and
 * port) and path, without scheme, credentials, query or fragment, so no secret a gateway's address may
 * carry is ever recorded (`https://u:p@gw.example/v1/?key=k` → `gw.example/v1`). Unset: OpenAI's API,
 * as the models' client then calls it. A value that is not an http(s) address identifies nothing.
 */
export function endpointIdentity(baseURL: string | null | undefined): string {
  let url: URL
  try {
    url = new URL(baseURL || DEFAULT_MODELS_URL)
  } catch {
    return 'not an address'
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'not an address'
  return `${url.host}${url.pathname.replace(/\/+$/, '')}`.toLowerCase()
}
