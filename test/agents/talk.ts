import type { Agent, Answer, Message } from '../../src/play/agents/agent.ts'

/** Plays user messages against an agent the way the runner does: one conversation, history growing. */
export async function talk(agent: Agent, userMessages: readonly string[], options: { session?: string; signal?: AbortSignal } = {}): Promise<Answer[]> {
  const context = { session: options.session ?? 'session-1', signal: options.signal ?? new AbortController().signal }
  const conversation = await agent.conversation(context)
  const history: Message[] = []
  const answers: Answer[] = []
  for (const message of userMessages) {
    const answer = await conversation.answer(message, { ...context, history: [...history] })
    history.push({ role: 'user', content: message }, { role: 'assistant', content: answer.text })
    answers.push(answer)
  }
  await conversation.close?.(context)
  return answers
}

export function words(text: string): number {
  return text.split(/\s+/).filter(Boolean).length
}
