import { textLines } from './http-stream.ts'

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
