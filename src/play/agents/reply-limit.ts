import type { Agent, ToolCall } from './agent.ts'
import { joinMessages, MESSAGE_SEPARATOR, spoken, spokenOf } from './answer-messages.ts'

/**
 * What convy-ci keeps of one answer. An agent may answer megabytes (a loop, a dump of its context);
 * every answer is written to attempts.jsonl and shown in the pages, so past the limit it is cut and
 * marked, and the turn still counts. `max_reply_kb` in an agent's entry of convy.yml sets the limit.
 */
export const DEFAULT_MAX_REPLY_KB = 1024

/** A response body is read up to this many times the kept size (JSON escapes, stream framing), at least 64 MiB. */
export function maxBodyBytes(maxReplyBytes: number): number {
  return Math.max(64 * 2 ** 20, 4 * maxReplyBytes)
}

/** The line that ends an answer cut to `maxBytes` of its `bytes`. */
export function cutMark(bytes: number, maxBytes: number): string {
  return `\n[cut by convy-ci: the answer was ${bytes.toLocaleString('en-US')} bytes; the first ${maxBytes.toLocaleString('en-US')} are kept (max_reply_kb)]`
}

const CUT_MARK = /\n\[cut by convy-ci: the answer was [\d,]+ bytes; the first ([\d,]+) are kept \(max_reply_kb\)\]$/

export function cutReply(text: string, maxBytes: number): string {
  // A UTF-16 unit is at most 3 UTF-8 bytes: most answers are known to fit without encoding them.
  if (text.length * 3 <= maxBytes) return text
  const bytes = Buffer.from(text, 'utf8')
  if (bytes.length <= maxBytes) return text
  // Cut already as it was read (cut-json.ts), with the size it had in full: kept as it is.
  const mark = CUT_MARK.exec(text)
  if (mark && Buffer.byteLength(text.slice(0, mark.index)) <= maxBytes) return text
  // `stream: true` holds back a character cut in half instead of decoding it as U+FFFD.
  const kept = new TextDecoder().decode(bytes.subarray(0, maxBytes), { stream: true })
  return `${kept}${cutMark(bytes.length, maxBytes)}`
}

/**
 * The limit holds for an answer of several messages as a whole (their text joined, as it is read):
 * the messages that fit are kept, the one that crosses the limit is cut and marked, later ones dropped
 * and counted in the mark.
 */
export function cutMessages(messages: readonly string[], maxBytes: number): string[] {
  // As in cutReply: most answers are known to fit without encoding them.
  if (messages.reduce((chars, message) => chars + message.length + MESSAGE_SEPARATOR.length, 0) * 3 <= maxBytes) return [...messages]
  const bytes = Buffer.byteLength(joinMessages(messages), 'utf8')
  if (bytes <= maxBytes) return [...messages]
  const kept: string[] = []
  let left = maxBytes
  for (const [index, message] of messages.entries()) {
    const size = Buffer.byteLength(message, 'utf8') + (index > 0 ? Buffer.byteLength(MESSAGE_SEPARATOR) : 0)
    if (size <= left) {
      kept.push(message)
      left -= size
      continue
    }
    const room = Math.max(0, left - (index > 0 ? Buffer.byteLength(MESSAGE_SEPARATOR) : 0))
    const dropped = messages.length - index - 1
    const start = new TextDecoder().decode(Buffer.from(message, 'utf8').subarray(0, room), { stream: true })
    kept.push(
      `${start}\n[cut by convy-ci: the answer was ${bytes.toLocaleString('en-US')} bytes in ${messages.length} messages; the first ${maxBytes.toLocaleString('en-US')} are kept${dropped > 0 ? `, ${dropped} later message(s) dropped` : ''} (max_reply_kb)]`,
    )
    break
  }
  return kept
}

export function limitReplies(agent: Agent, maxBytes: number): Agent {
  return {
    version: agent.version,
    async conversation(context) {
      const conversation = await agent.conversation(context)
      return {
        answer: async (message, answerContext) => {
          const answer = await conversation.answer(message, answerContext)
          const said = spokenOf(answer)
          if (said === null) return answer
          const { messages: _messages, ...rest } = answer
          const cut = { ...rest, ...(said.messages ? spoken(cutMessages(said.messages, maxBytes)) : { text: cutReply(said.text, maxBytes) }) }
          return Array.isArray(answer.toolCalls) ? { ...cut, toolCalls: limitToolCalls(answer.toolCalls) } : cut
        },
        close: conversation.close === undefined ? undefined : (closeContext) => conversation.close?.(closeContext),
      }
    },
  }
}

/**
 * Tool calls are kept too, arguments and results alike: a tool may return a whole database table.
 * Past these limits a call's arguments or result become the start of their JSON, as text, marked;
 * calls past the hundredth of one answer are dropped, and the last kept one says how many.
 */
export const MAX_TOOL_JSON_CHARS = 16_000
export const MAX_TOOL_CALLS_PER_ANSWER = 100

export function limitToolCalls(calls: readonly ToolCall[]): ToolCall[] {
  const kept = calls.slice(0, MAX_TOOL_CALLS_PER_ANSWER).map((call) => {
    const bounded: ToolCall = { name: cutJson(call.name) as string }
    if (call.arguments !== undefined) bounded.arguments = cutJson(call.arguments)
    if (call.result !== undefined) bounded.result = cutJson(call.result)
    return bounded
  })
  if (calls.length > kept.length) kept.push({ name: `[cut by convy-ci: ${calls.length - kept.length} more tool calls in this answer]` })
  return kept
}

function cutJson(value: unknown): unknown {
  let json: string | undefined
  try {
    json = typeof value === 'string' ? value : JSON.stringify(value)
  } catch (error) {
    // A module's tool result with a cycle or a BigInt: recorded as what it is, not written as JSON.
    return `[not JSON: ${(error as Error).message}]`
  }
  if (json === undefined || json.length <= MAX_TOOL_JSON_CHARS) return value
  return `${json.slice(0, MAX_TOOL_JSON_CHARS)}… [cut by convy-ci: ${json.length.toLocaleString('en-US')} characters]`
}
