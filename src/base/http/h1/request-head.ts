import type { WholeRequest } from '../whole.ts'

// Where a request goes and the bytes of its head: the target parsed from its URL once, and the request
// line and headers, checked before anything is written (a header that would split the request is
// refused).

const HEADER_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/
const HEADER_VALUE = /[\r\n\0]/
// Headers the client writes itself, from the request's own URL and body.
const FRAMING = new Set(['content-length', 'transfer-encoding', 'connection', 'keep-alive', 'upgrade'])

/** Where a request goes, parsed once from its URL. */
export interface Target {
  origin: string
  secure: boolean
  host: string
  port: number
  /** The Host header. */
  authority: string
  path: string
}

export function targetOf(url: string): Target {
  const parsed = new URL(url)
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new TypeError(`${url}: only http: and https: addresses can be sent to`)
  const secure = parsed.protocol === 'https:'
  const port = parsed.port === '' ? (secure ? 443 : 80) : Number(parsed.port)
  // An IPv6 literal comes bracketed in the URL, and must not be to connect.
  const host = parsed.hostname.startsWith('[') ? parsed.hostname.slice(1, -1) : parsed.hostname
  return { origin: parsed.origin, secure, host, port, authority: parsed.host, path: `${parsed.pathname}${parsed.search}` }
}

export function requestHead(request: Pick<WholeRequest, 'method' | 'headers' | 'body'>, target: Target): string {
  const { lines, host } = headerLines(request.headers, () => `${request.method} ${target.origin}${target.path}`)
  let head = `${request.method} ${target.path} HTTP/1.1\r\n${host ? '' : `host: ${target.authority}\r\n`}${lines}`
  if (request.body !== undefined) head += `content-length: ${Buffer.byteLength(request.body)}\r\n`
  else if (request.method === 'POST' || request.method === 'PUT' || request.method === 'PATCH') head += 'content-length: 0\r\n'
  return `${head}\r\n`
}

// A client sends the same headers object again and again (a chat client's, an agent's): checked and
// written out once per object.
const written = new WeakMap<object, { lines: string; host: boolean }>()

function headerLines(headers: Readonly<Record<string, string>>, what: () => string): { lines: string; host: boolean } {
  const known = written.get(headers)
  if (known) return known
  // Names that differ only in case are one header, as with fetch's Headers: their values are joined.
  const merged = new Map<string, string>()
  for (const [name, value] of Object.entries(headers)) {
    if (!HEADER_NAME.test(name)) throw new TypeError(`${what()}: ${JSON.stringify(name)} is not a header name`)
    if (HEADER_VALUE.test(value)) throw new TypeError(`${what()}: header ${name} holds a line break or a NUL byte`)
    const key = name.toLowerCase()
    if (FRAMING.has(key)) continue
    const earlier = merged.get(key)
    merged.set(key, earlier === undefined ? value : `${earlier}, ${value}`)
  }
  let lines = ''
  for (const [name, value] of merged) lines += `${name}: ${value}\r\n`
  const result = { lines, host: merged.has('host') }
  written.set(headers, result)
  return result
}

