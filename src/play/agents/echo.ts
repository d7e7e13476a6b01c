import type { Agent } from './agent.ts'

/** Built in: answers with the user's message. Tries the whole pipeline with no agent to run. */
export const echoAgent: Agent = {
  conversation: () => ({ answer: (message) => ({ text: message }) }),
}
