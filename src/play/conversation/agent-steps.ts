import type { Agent, Conversation, Message, ScenarioTools } from '../agents/agent.ts'
import type { Turn } from '../../records/journal/records.ts'
import { errorMessage } from '../../base/shared/errors.ts'
import type { Mask } from '../../base/shared/secrets.ts'
import { tokensOf } from './attempt-builder.ts'
import { AgentFailure, throwIfInterrupted } from './failures.ts'
import { withStepTimeout } from './step-timeout.ts'
import { spokenOf } from '../agents/answer-messages.ts'

/** What every step of the agent gets: its deadline, the run's signal, the secrets to mask in errors. */
export interface StepOptions {
  session: string
  /** The attempt's context, handed to the agent with every step. */
  context: Readonly<Record<string, unknown>>
  /** The scenario's tools in-process (play/tools/), handed to the agent beside its context; absent when it has none. */
  tools?: ScenarioTools
  turnTimeoutSeconds: number
  signal: AbortSignal
  mask: Mask
  clock: () => number
}

/**
 * One step of the agent under its deadline; a failure (not an interruption) becomes an AgentFailure.
 * `since()` gives the step's start to the step itself, so a streaming answer's first token is timed
 * from the same instant as the whole answer.
 */
async function timed<T>(
  options: StepOptions,
  step: (signal: AbortSignal, since: () => number) => Promise<T> | T,
  failure: (error: string, seconds: number) => AgentFailure,
): Promise<{ value: T; seconds: number }> {
  const t0 = options.clock()
  const since = () => (options.clock() - t0) / 1000
  try {
    const value = await withStepTimeout(options.turnTimeoutSeconds, options.signal, (signal) => step(signal, since))
    return { value, seconds: since() }
  } catch (cause) {
    throwIfInterrupted(options.signal)
    throw failure(options.mask(errorMessage(cause)), since())
  }
}

export async function openConversation(agent: Agent, options: StepOptions): Promise<Conversation> {
  const whole = (error: string, seconds: number) => new AgentFailure(`opening the conversation failed: ${error}`, `opening the conversation failed: ${error}`, seconds)
  return (await timed(options, (signal) => agent.conversation({ session: options.session, signal, context: options.context, ...toolsOf(options) }), whole)).value
}

/** Turn `index` (from 0): the agent's answer to `text`, as its turn records it. */
export async function askAgent(conversation: Conversation, index: number, text: string, history: readonly Message[], options: StepOptions): Promise<Turn & { role: 'agent' }> {
  const turnFailure = (error: string, seconds: number) => new AgentFailure(`turn ${index + 1}: ${error}`, error, seconds)
  let firstTokenSeconds: number | undefined
  const answered = await timed(
    options,
    (signal, since) => {
      const firstToken = () => {
        firstTokenSeconds ??= since()
      }
      return conversation.answer(text, { session: options.session, signal, context: options.context, ...toolsOf(options), history: [...history], firstToken })
    },
    turnFailure,
  )
  const said = spokenOf(answered.value)
  if (said === null) throw turnFailure('the agent answered without a `text` string (or `messages`, a list of strings)', answered.seconds)
  const toolCalls = answered.value.toolCalls ?? []
  return {
    role: 'agent',
    text: said.text,
    // Several messages: each recorded as it came; the text above, joined, is what the models and checks read.
    ...(said.messages ? { messages: said.messages } : {}),
    seconds: answered.seconds,
    tokens: tokensOf(answered.value.usage),
    error: null,
    ...(toolCalls.length > 0 ? { toolCalls } : {}),
    ...(firstTokenSeconds === undefined ? {} : { firstTokenSeconds: Math.min(firstTokenSeconds, answered.seconds) }),
  }
}

export async function closeConversation(conversation: Conversation, options: StepOptions): Promise<void> {
  const whole = (error: string, seconds: number) => new AgentFailure(`closing the conversation failed: ${error}`, `closing the conversation failed: ${error}`, seconds)
  await timed(options, (signal) => conversation.close?.({ session: options.session, signal, context: options.context, ...toolsOf(options) }), whole)
}

function toolsOf(options: StepOptions): { tools?: ScenarioTools } {
  return options.tools ? { tools: options.tools } : {}
}
