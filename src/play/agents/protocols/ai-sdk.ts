import type { AiSdkAgentConfig } from '../../../records/config/config.ts'
import type { Fetch } from '../../../base/http/fetch.ts'
import type { Agent, Answer } from '../agent.ts'
import { UIMessageReader, type UIMessage, type UIPart } from './ai-sdk-stream.ts'
import { excerpt } from '../fetch-json.ts'
import { jsonData, openStream, sseEvents } from './http-stream.ts'
import { findUsage, usageAt } from './usage.ts'
import { hasContext, mergedMap } from './context-slots.ts'
import { spoken } from '../answer-messages.ts'

/**
 * An agent built with the Vercel AI SDK and served to `useChat` (`protocol: ai-sdk`): each turn
 * POSTs the whole chat as UI messages, under the same chat id, as `DefaultChatTransport` does, and
 * reads the UI message stream that comes back. Each text part is a message of the answer (text
 * before a tool call and after it are two). The agent's tool calls are in the stream; usage is
 * only there when the server puts it in the message metadata (`messageMetadata`), read from
 * `tokens` paths or from the usual places (`usage`, `totalUsage`).
 */
export function createAiSdkAgent(config: AiSdkAgentConfig, fetch?: Fetch): Agent {
  return {
    version: config.version,
    conversation: ({ session }) => {
      let messages: UIMessage[] = []
      return {
        async answer(message, context) {
          const sent = [...messages, { id: `user-${messages.length + 1}`, role: 'user' as const, parts: [{ type: 'text', text: message }] }]
          // The attempt's context is a field of the body, beside `body`'s own (over its `context`, if it has one).
          const withContext = hasContext(context.context) ? { context: mergedMap(config.body['context'], context.context) } : {}
          const body = { ...config.body, ...withContext, id: session, messages: sent, trigger: 'submit-message' }
          const stream = await openStream(config.url, { headers: config.headers, body, signal: context.signal, fetch })
          if (!stream.contentType.startsWith('text/event-stream')) {
            throw new Error(`${stream.what} answered ${stream.contentType}, not a UI message stream (text/event-stream)`)
          }
          const reader = new UIMessageReader(() => context.firstToken?.())
          let done = false
          for await (const event of sseEvents(stream.chunks)) {
            if (event.data === '[DONE]') {
              done = true
              break
            }
            const part = jsonData(event)
            if (part === null || typeof part !== 'object' || typeof (part as UIPart).type !== 'string') {
              throw new Error(`${stream.what} sent something that is not a UI message stream part: ${excerpt(event.data)}`)
            }
            reader.read(part as UIPart)
          }
          if (!done && !reader.finished) throw new Error(`the stream from ${stream.what} ended before its finish part: the answer was cut short`)
          messages = [...sent, reader.message(`assistant-${sent.length + 1}`)]
          return answerOf(reader, config)
        },
      }
    },
  }
}

function answerOf(reader: UIMessageReader, config: AiSdkAgentConfig): Answer {
  const usage = config.tokens ? usageAt(reader.metadata, config.tokens) : findUsage(reader.metadata)
  const calls = reader.toolCalls
  return { ...spoken(reader.textParts), ...(usage ? { usage } : {}), ...(calls.length > 0 ? { toolCalls: calls } : {}) }
}
