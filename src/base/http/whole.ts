import type { Fetch } from './fetch-type.ts'
import { withDeadline } from '../shared/deadline.ts'

// Apart from fetch.ts, like fetch-type.ts: the public API's fetchJson reads answers this way with the
// built-in fetch, and must not pull undici into dist/index.js.

/** A request whose answer is read whole: an agent's JSON turn, a chat completion. */
export interface WholeRequest {
  method: string
  headers: Readonly<Record<string, string>>
  body?: string
  signal?: AbortSignal
  /** The whole answer must be in within this long, or the request fails with RequestTimedOut. */
  timeoutMs?: number
  /** Reads the body as it arrives instead of keeping all of it (play/agents/cut-json.ts); default: kept whole. */
  reader?: BodyReader
}

/**
 * What an answer's body is read through as it arrives, keeping what it chooses: the size bound of the
 * client then holds for what it keeps (`size`), not for the bytes that went through it.
 */
export interface BodyReader {
  push(chunk: Uint8Array): void
  /** Bytes kept so far. */
  readonly size: number
  /** The body as kept. */
  end(): Uint8Array
}

/** No complete answer within the request's timeoutMs (which covers a body that arrives too slowly). */
export class RequestTimedOut extends Error {
  constructor(readonly ms: number) {
    super(`no complete answer within ${ms / 1000} s`)
    this.name = 'RequestTimedOut'
  }
}

/** Past maxBodyBytes: the request fails and the rest of the answer is not read. */
export class ResponseTooLarge extends Error {
  constructor(what: string, limit: number) {
    super(`${what} answered more than ${mebibytes(limit)}; convy-ci stops reading an answer there (max_reply_kb sets what is kept)`)
    this.name = 'ResponseTooLarge'
  }
}

function mebibytes(bytes: number): string {
  return `${Math.round((bytes / 2 ** 20) * 10) / 10} MiB`
}

/** Header names in lower case, as undici gives them. */
export interface WholeAnswer {
  status: number
  headers: Readonly<Record<string, string | string[] | undefined>>
  text: string
}

export type SendWhole = (url: string, request: WholeRequest) => Promise<WholeAnswer>

/** The whole-answer way of any fetch: createFetch's own, or one made of a plain fetch (tests, users). */
export function sendWhole(fetch: Fetch): SendWhole {
  if ('whole' in fetch && typeof fetch.whole === 'function') return fetch.whole as SendWhole
  return async (url, { method, headers, body, signal, timeoutMs, reader }) => {
    const deadline = timeoutMs === undefined ? undefined : withDeadline(signal, timeoutMs, () => new RequestTimedOut(timeoutMs))
    try {
      const response = await fetch(url, { method, headers, body, signal: deadline?.signal ?? signal })
      const pairs: Record<string, string> = {}
      response.headers.forEach((value, key) => {
        pairs[key] = value
      })
      if (reader === undefined) return { status: response.status, headers: pairs, text: await response.text() }
      reader.push(new Uint8Array(await response.arrayBuffer()))
      return { status: response.status, headers: pairs, text: new TextDecoder().decode(reader.end()) }
    } catch (error) {
      if (deadline?.expired) throw deadline.signal.reason
      throw error
    } finally {
      deadline?.end()
    }
  }
}

/** A header of a whole answer as one string (undici gives repeated headers as an array). */
export function headerOf(answer: WholeAnswer, name: string): string | undefined {
  const value = answer.headers[name]
  return Array.isArray(value) ? value.join(', ') : value
}

