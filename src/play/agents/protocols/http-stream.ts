import type { Fetch } from '../../../base/http/fetch.ts'
import { networkCause, statusError } from '../fetch-json.ts'

/**
 * One request to a streaming agent: the answer's body as it arrives, with failures worded like
 * fetchJson's: which request, which status, the start of what came back. A stream that breaks off
 * (the connection dropped) is an error that says so; aborts (turn timeout, Ctrl+C) are rethrown as
 * the signal's own reason.
 */
export interface StreamRequest {
  method?: string
  headers?: Readonly<Record<string, string>>
  /** Sent as JSON. */
  body?: unknown
  signal: AbortSignal
  fetch?: Fetch
}

export interface OpenedStream {
  /** `POST http://…`, for messages. */
  what: string
  contentType: string
  /** The body's bytes as they arrive. */
  chunks: AsyncIterable<Uint8Array>
}

export async function openStream(url: string, request: StreamRequest): Promise<OpenedStream> {
  const method = request.method ?? 'POST'
  const what = `${method} ${url}`
  const { signal } = request
  let response: Response
  try {
    response = await (request.fetch ?? fetch)(url, {
      method,
      headers: { 'content-type': 'application/json', accept: 'text/event-stream, application/x-ndjson, application/json', ...request.headers },
      body: request.body === undefined ? undefined : JSON.stringify(request.body),
      signal,
    })
  } catch (error) {
    if (signal.aborted) throw signal.reason
    throw new Error(`could not reach ${what}: ${networkCause(error)}`, { cause: error })
  }
  const contentType = response.headers.get('content-type') ?? 'no content-type'
  if (response.status < 200 || response.status > 299) throw await statusError(what, response.status, await response.text().catch(() => ''))
  return { what, contentType, chunks: bodyChunks(response, what, signal) }
}

async function* bodyChunks(response: Response, what: string, signal: AbortSignal): AsyncGenerator<Uint8Array> {
  const body = response.body
  if (body === null) return
  const reader = body.getReader()
  try {
    for (;;) {
      let read: Awaited<ReturnType<typeof reader.read>>
      try {
        read = await reader.read()
      } catch (error) {
        if (signal.aborted) throw signal.reason
        throw new Error(`the answer from ${what} broke off: ${networkCause(error)}`, { cause: error })
      }
      if (read.done) return
      yield read.value
    }
  } finally {
    // The reader may stop early (a done marker): release the connection rather than read the rest.
    await reader.cancel().catch(() => undefined)
  }
}

/** Lines of text as they arrive (`\n`, `\r\n` or `\r`), the last one even without a line break. */
export async function* textLines(chunks: AsyncIterable<Uint8Array>): AsyncGenerator<string> {
  const decoder = new TextDecoder()
  let pending = ''
  for await (const chunk of chunks) {
    pending += decoder.decode(chunk, { stream: true })
    // A \r at the very end may be the first half of \r\n: wait for the next chunk to tell.
    const complete = pending.endsWith('\r') ? pending.length - 1 : pending.length
    const lines = pending.slice(0, complete).split(/\r\n|\r|\n/)
    pending = lines.pop()! + pending.slice(complete)
    yield* lines
  }
  pending += decoder.decode()
  if (pending.endsWith('\r')) pending = pending.slice(0, -1)
  if (pending !== '') yield pending
}

/**
 * Server-sent events, as the WHATWG spec parses them: `field: value` lines, `data` lines of one event
 * joined with newlines, `:` comments (keep-alives) skipped, an event dispatched at a blank line. An
 * event the stream ended in the middle of is dropped, as browsers do: a connection that broke off
 * must not pass for a whole last event.
 */
export interface SseEvent {
  /** `message` when the server named none. */
  event: string
  data: string
  id: string | undefined
}

export async function* sseEvents(chunks: AsyncIterable<Uint8Array>): AsyncGenerator<SseEvent> {
  let event = ''
  let data: string[] = []
  let id: string | undefined
  for await (const line of textLines(chunks)) {
    if (line === '') {
      if (data.length > 0) yield { event: event || 'message', data: data.join('\n'), id }
      event = ''
      data = []
      continue
    }
    if (line.startsWith(':')) continue
    const colon = line.indexOf(':')
    const field = colon < 0 ? line : line.slice(0, colon)
    const value = colon < 0 ? '' : line.slice(colon + (line[colon + 1] === ' ' ? 2 : 1))
    if (field === 'data') data.push(value)
    else if (field === 'event') event = value
    else if (field === 'id' && !value.includes('\0')) id = value
  }
}

/** The event's data as JSON, or undefined when it is not JSON (a `[DONE]` marker, plain text). */
export function jsonData(event: SseEvent): unknown {
  try {
    return JSON.parse(event.data) as unknown
  } catch {
    return undefined
  }
}
