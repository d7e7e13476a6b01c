import type { Agent, Answer, Message } from '../../src/play/agents/agent.ts'

/** Plays user messages against an agent the way the runner does: one conversation, history growing. */
export async function talk(agent: Agent, userMessages: readonly string[], options: { session?: string; signal?: AbortSignal; context?: Record<string, unknown> } = {}): Promise<Answer[]> {
  const context = { session: options.session ?? 'session-1', signal: options.signal ?? new AbortController().signal, context: options.context ?? {} }
  const conversation = await agent.conversation(context)
  const history: Message[] = []
  const answers: Answer[] = []
  for (const message of userMessages) {
    const answer = await conversation.answer(message, { ...context, history: [...history] })
    history.push({ role: 'user', content: message }, { role: 'assistant', content: answer.text ?? '' })
    answers.push(answer)
  }
  await conversation.close?.(context)
  return answers
}

export function words(text: string): number {
  return text.split(/\s+/).filter(Boolean).length
}

/**
 * Resolves once `requests` (a fake's log) holds `count` entries: a test that aborts a turn does it
 * when the agent has the request in hand, not after a guess of how long the request takes.
 */
export async function untilRequested(requests: readonly unknown[], count: number): Promise<void> {
  while (requests.length < count) await new Promise((tick) => setTimeout(tick, 5))
}
