import type { Fetch } from '../../base/http/fetch-type.ts'
import { headerOf, sendWhole, type BodyReader } from '../../base/http/whole.ts'
import { errorMessage, rootCause } from '../../base/shared/errors.ts'
import { statusCodes } from '../../base/shared/status-codes.ts'

/**
 * One JSON request to an agent, with failures worded for the person reading a failed turn: which
 * request, which status, and the start of what came back. Aborts (turn timeout, Ctrl+C) are rethrown
 * as the signal's own reason, so the caller can tell them from the agent's failures.
 */
export interface JsonRequest {
  method?: string
  headers?: Readonly<Record<string, string>>
  /** Sent as JSON. */
  body?: unknown
  signal?: AbortSignal
  /** The HTTP client; default: the built-in fetch. A run passes its own (src/base/http/fetch.ts). */
  fetch?: Fetch
  /** An answer with no body is null rather than a failure (a tear-down's `204 No Content`). */
  emptyIsNull?: boolean
  /** Reads the body as it arrives (cut-json.ts); default: kept whole. */
  reader?: BodyReader
}

/** A non-2xx answer. `excerpt` is the start of the body, for the message and for callers that branch on it. */
export class HttpError extends Error {
  readonly status: number
  readonly excerpt: string
  constructor(status: number, message: string, excerpt: string) {
    super(message)
    this.name = 'HttpError'
    this.status = status
    this.excerpt = excerpt
  }
}

const EXCERPT_CHARS = 200

/** The start of a body on one line, for error messages. */
export function excerpt(body: string): string {
  const oneLine = body.replace(/\s+/g, ' ').trim()
  if (oneLine === '') return '(empty body)'
  return oneLine.length > EXCERPT_CHARS ? `${oneLine.slice(0, EXCERPT_CHARS)}…` : oneLine
}

/** The HttpError of a non-2xx answer, worded the same for a JSON turn and a stream. */
export async function statusError(what: string, status: number, body: string): Promise<HttpError> {
  const short = excerpt(body)
  // The reason phrase from the status code: not every client (nor HTTP/2) passes the server's on.
  const reason = (await statusCodes())[status]
  return new HttpError(status, `${what} answered HTTP ${status}${reason === undefined ? '' : ` ${reason}`}: ${short}`, short)
}

export async function fetchJson(url: string, request: JsonRequest = {}): Promise<unknown> {
  const method = request.method ?? 'POST'
  const what = `${method} ${url}`
  const { signal } = request
  let status: number
  let contentType: string
  let body: string
  try {
    const answer = await sendWhole(request.fetch ?? fetch)(url, {
      method,
      headers: { 'content-type': 'application/json', accept: 'application/json', ...request.headers },
      body: request.body === undefined ? undefined : JSON.stringify(request.body),
      signal,
      reader: request.reader,
    })
    status = answer.status
    contentType = headerOf(answer, 'content-type') ?? 'no content-type'
    body = answer.text
  } catch (error) {
    if (signal?.aborted) throw signal.reason
    throw new Error(`could not reach ${what}: ${networkCause(error)}`, { cause: error })
  }
  if (status < 200 || status > 299) throw await statusError(what, status, body)
  if (request.emptyIsNull && body.trim() === '') return null
  try {
    return JSON.parse(body) as unknown
  } catch {
    throw new Error(`${what} answered with something that is not JSON (HTTP ${status}, ${contentType}): ${excerpt(body)}`)
  }
}

/** fetch says only "fetch failed": the message of its root cause says what happened. */
export function networkCause(error: unknown): string {
  return errorMessage(rootCause(error))
}
