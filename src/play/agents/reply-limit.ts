import type { Agent } from './agent.ts'

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

export function cutReply(text: string, maxBytes: number): string {
  // A UTF-16 unit is at most 3 UTF-8 bytes: most answers are known to fit without encoding them.
  if (text.length * 3 <= maxBytes) return text
  const bytes = Buffer.from(text, 'utf8')
  if (bytes.length <= maxBytes) return text
  // `stream: true` holds back a character cut in half instead of decoding it as U+FFFD.
  const kept = new TextDecoder().decode(bytes.subarray(0, maxBytes), { stream: true })
  return `${kept}\n[cut by convy-ci: the answer was ${bytes.length.toLocaleString('en-US')} bytes; the first ${maxBytes.toLocaleString('en-US')} are kept (max_reply_kb)]`
}

export function limitReplies(agent: Agent, maxBytes: number): Agent {
  return {
    version: agent.version,
    async conversation(context) {
      const conversation = await agent.conversation(context)
      return {
        answer: async (message, answerContext) => {
          const answer = await conversation.answer(message, answerContext)
          return typeof answer?.text === 'string' ? { ...answer, text: cutReply(answer.text, maxBytes) } : answer
        },
        close: conversation.close === undefined ? undefined : (closeContext) => conversation.close?.(closeContext),
      }
    },
  }
}
