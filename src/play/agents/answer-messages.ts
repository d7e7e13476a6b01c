import type { Answer } from './agent.ts'

/**
 * An answer of several messages (agent.ts): each kept as it came, read as one text. The separator is
 * a blank line, as two chat bubbles in a row read; the records keep the messages apart.
 */
export const MESSAGE_SEPARATOR = '\n\n'

export function joinMessages(messages: readonly string[]): string {
  return messages.join(MESSAGE_SEPARATOR)
}

/** What a protocol answers from the messages it read: one message is a plain text, as before. */
export function spoken(messages: readonly string[]): { text: string; messages?: string[] } {
  return messages.length > 1 ? { text: joinMessages(messages), messages: [...messages] } : { text: messages[0] ?? '' }
}

/**
 * The text and the messages of any answer: `messages` wins over `text` when both are given. Null when
 * it has neither as it should (a module's mistake, reported by checked-agent.ts).
 */
export function spokenOf(answer: Partial<Pick<Answer, 'text' | 'messages'>> | null | undefined): { text: string; messages?: string[] } | null {
  const messages = answer?.messages
  if (Array.isArray(messages)) return messages.every((m) => typeof m === 'string') ? spoken(messages) : null
  return typeof answer?.text === 'string' ? { text: answer.text } : null
}
