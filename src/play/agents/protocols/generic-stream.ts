import type { StreamAgentConfig } from '../../../records/config/config.ts'
import type { Fetch } from '../../../base/http/fetch.ts'
import type { Agent } from '../agent.ts'
import { fillRequest } from './body-template.ts'
import { excerpt } from '../fetch-json.ts'
import { openStream, sseEvents, textLines } from './http-stream.ts'
import { StreamReading, type StreamItem } from './stream-reading.ts'

/**
 * An agent with a streaming API of its own (`protocol: sse` or `ndjson`): the request is templated
 * as a JSON agent's, and the answer is read from each event (SSE) or line (NDJSON) at the paths
 * convy.yml gives — pieces of text, the whole text, token counts, tool calls, a session id to send
 * back, and the markers of the end and of an error.
 */
export function createStreamAgent(config: StreamAgentConfig, fetch?: Fetch): Agent {
  return {
    version: config.version,
    conversation: ({ session }) => {
      // The agent may give its own session id; later requests of the conversation send that instead.
      let current = session
      return {
        async answer(message, context) {
          const request = fillRequest(config, { text: message, session: current, context: context.context, history: [...context.history, { role: 'user', content: message }] })
          const stream = await openStream(request.url, { method: config.method, headers: request.headers, body: request.body, signal: context.signal, fetch })
          const reading = new StreamReading(config, () => context.firstToken?.())
          for await (const item of config.protocol === 'sse' ? sseItems(stream.chunks) : ndjsonItems(stream.chunks, stream.what)) {
            if (reading.read(item, stream.what)) break
          }
          const answer = reading.answer(stream.what)
          current = reading.session ?? current
          return answer
        },
      }
    },
  }
}

async function* sseItems(chunks: AsyncIterable<Uint8Array>): AsyncGenerator<StreamItem> {
  for await (const event of sseEvents(chunks)) yield { event: event.event, raw: event.data, json: parsed(event.data) }
}

async function* ndjsonItems(chunks: AsyncIterable<Uint8Array>, what: string): AsyncGenerator<StreamItem> {
  for await (const line of textLines(chunks)) {
    if (line.trim() === '') continue
    const json = parsed(line)
    if (json === undefined) throw new Error(`${what} sent a line that is not JSON: ${excerpt(line)}`)
    yield { event: undefined, raw: line, json }
  }
}

function parsed(text: string): unknown {
  try {
    return JSON.parse(text) as unknown
  } catch {
    return undefined
  }
}
