import type { Conversation } from '../agents/agent.ts'
import { brokenFatalCheck } from '../judge/checks.ts'
import type { ModelCallContext } from '../../adapters/model-client/model-call.ts'
import type { Scenario } from '../../records/scenario/scenario.ts'
import { errorMessage } from '../../base/shared/errors.ts'
import { maskDeep, type Mask } from '../../base/shared/secrets.ts'
import { askAgent, type StepOptions } from './agent-steps.ts'
import type { AttemptBuilder } from './attempt-builder.ts'
import { NoVerdict, throwIfInterrupted } from './failures.ts'
import type { SimulatedUser } from './roles.ts'
import { withContext } from './world-steps.ts'
import type { EndedBy } from '../../records/journal/records.ts'

/** What --smoke sends to an agent whose scenario has no script. */
export const SMOKE_GREETING = 'Hello!'

/** Where the user's lines come from: the simulated user, the scenario's script, the smoke greeting, or a recorded attempt. */
export type LineSource = { kind: 'simulated' | 'script' | 'greeting' } | { kind: 'replay'; lines: readonly string[] }

export interface UserSide {
  source: LineSource
  user: SimulatedUser | null
  mask: Mask
  /** The simulated user's calls: counted, cancelled and cached per attempt. */
  context: ModelCallContext
}

/**
 * The dialogue: a user line, the agent's answer, until the user stops, the lines run out or an answer
 * breaks a fatal check; `endedBy` says which. A failure of the agent throws AgentFailure, of the
 * simulated user NoVerdict; the builder keeps what was said until then.
 */
export async function playTurns(
  attempt: AttemptBuilder,
  conversation: Conversation,
  user: UserSide,
  steps: StepOptions,
  /** Asked after each answer: how the attempt ends there, if it does (a stop_if claim, a limit). */
  ending: () => Promise<EndedBy | null> = async () => null,
): Promise<void> {
  const { scenario } = attempt
  const { source } = user
  const maxUserLines = source.kind === 'replay' ? source.lines.length : source.kind === 'script' ? scenario.script!.length : source.kind === 'greeting' ? 1 : scenario.maxTurns
  for (let index = 0; index < maxUserLines; index++) {
    const line = await nextUserLine(scenario, index, attempt, user, steps.clock)
    if (line.text === '') {
      attempt.endedBy = 'user_stop'
      return
    }
    // The agent gets the history before this line; the line itself is the message.
    const history = [...attempt.history]
    attempt.userLine(line.text, line.seconds)
    const answer = await askAgent(conversation, index, line.text, history, steps)
    attempt.agentLine(answer)
    if (brokenFatalCheck(scenario.checks, answer.text, answer.toolCalls ?? [], attempt.context)) {
      attempt.endedBy = 'stop_check'
      return
    }
    const ended = await ending()
    if (ended) {
      attempt.endedBy = ended
      return
    }
    if (line.stop) {
      attempt.endedBy = 'user_stop'
      return
    }
  }
  // Only the simulated user can run out of turns: a script's, a replay's and the greeting's last line stop.
  attempt.endedBy = 'max_turns'
}

async function nextUserLine(scenario: Scenario, index: number, attempt: AttemptBuilder, user: UserSide, clock: () => number): Promise<{ text: string; stop: boolean; seconds: number }> {
  const { source } = user
  if (source.kind === 'greeting') return { text: SMOKE_GREETING, stop: true, seconds: 0 }
  if (source.kind === 'script') return { text: scenario.script![index]!, stop: index === scenario.script!.length - 1, seconds: 0 }
  if (source.kind === 'replay') return { text: source.lines[index]!, stop: index === source.lines.length - 1, seconds: 0 }
  const failed = (error: string) => new NoVerdict(`the simulated user (${user.user?.modelFor?.(scenario) ?? user.user?.model}) failed: ${error}`)
  if (!user.user) throw failed('no simulated user model is configured')
  const t0 = clock()
  try {
    // The simulated user does not need a secret the agent echoed: it sees the dialogue masked.
    const line = await user.user.next(withContext(scenario, attempt.context, user.mask), maskDeep(attempt.dialogue, user.mask), user.context)
    return { text: line.text.trim(), stop: line.stop, seconds: (clock() - t0) / 1000 }
  } catch (cause) {
    throwIfInterrupted(user.context.signal)
    throw failed(user.mask(errorMessage(cause)))
  }
}
