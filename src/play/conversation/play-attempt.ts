import type { Agent, Conversation } from '../agents/agent.ts'
import type { Attempt } from '../../records/journal/records.ts'
import { scenarioFingerprint, userSource, type Scenario } from '../../records/scenario/scenario.ts'
import { maskDeep, type Mask } from '../../base/shared/secrets.ts'
import { closeConversation, openConversation, type StepOptions } from './agent-steps.ts'
import { AttemptBuilder } from './attempt-builder.ts'
import { decideAttempt } from './decide.ts'
import { AgentFailure, NoVerdict } from './failures.ts'
import type { Judge, SimulatedUser, UserReviewer } from './roles.ts'
import { reviewFailure } from './review-failure.ts'
import { playTurns, type LineSource } from './turns.ts'
import type { AttemptWatcher } from './watch.ts'
import { openAttemptTools } from '../tools/attempt-tools.ts'
import type { ListenOptions } from '../tools/listen.ts'

export interface PlayDependencies {
  agent: Agent
  user: SimulatedUser | null
  judge: Judge | null
  /** Reviews failed attempts of the simulated user for its own mistakes; null: the review is off. */
  reviewer?: UserReviewer | null
  smoke: boolean
  turnTimeoutSeconds: number
  /** Dollars per million tokens by model name. */
  prices: Readonly<Record<string, readonly [number, number]>>
  /** Dollars per million of the agent's own tokens, when convy.yml prices it. */
  agentPrice?: readonly [number, number] | null
  /** convy.yml's `context:` for this agent; the scenario's own keys override it. */
  agentContext?: Readonly<Record<string, unknown>>
  /** Where a scenario's tools listen and the host the agent is told (convy.yml's `tools_host`); default 127.0.0.1. */
  toolsListen?: ListenOptions
  mask: Mask
  /** Aborted when the run is interrupted; the attempt is then dropped, not recorded. */
  signal: AbortSignal
  /** Sees each turn as it is recorded, masked (run --verbose). */
  watcher?: AttemptWatcher
  /** Ask the judge about the claims (default); a replay with --no-judge decides the checks only. */
  judging?: boolean
  now?: () => Date
  clock?: () => number
}

/**
 * One attempt: open a fresh conversation with the agent, play the turns (the user's lines from the
 * simulated user or the script), close it, then decide with convy-ci's checks and the judge on the
 * whole dialogue. Every failure is recorded and classified: the agent's (AgentFailure) as
 * agent_error, convy-ci's own models' (NoVerdict) as no_verdict. Only an interruption throws.
 */
export async function playAttempt(
  scenario: Scenario,
  attemptNumber: number,
  session: string,
  deps: PlayDependencies,
  /** A replay: the user's lines of a recorded attempt, sent as they were. */
  replayLines?: readonly string[],
): Promise<Attempt> {
  const clock = deps.clock ?? (() => performance.now())
  const { watcher } = deps
  const attempt = new AttemptBuilder(scenario, attemptNumber, clock, deps.now ?? (() => new Date()), watcher && ((turn) => watcher.turn(maskDeep(turn, deps.mask))))
  const context: Record<string, unknown> = { ...deps.agentContext, ...scenario.context }
  // The scenario's tools (play/tools/): served before the conversation opens, closed once it has.
  const started = clock()
  const served = await openAttemptTools(scenario, attemptNumber, { context: () => context, at: () => (clock() - started) / 1000, turns: attempt.turns, listen: deps.toolsListen })
  if (served) context['tools_url'] = served.url
  const steps: StepOptions = { session, context, ...(served ? { tools: served.tools } : {}), turnTimeoutSeconds: deps.turnTimeoutSeconds, signal: deps.signal, mask: deps.mask, clock }
  const source: LineSource = replayLines ? { kind: 'replay', lines: replayLines } : { kind: userSource(scenario, deps.smoke) }
  // The model cache keeps each attempt's calls apart, and forgets them when the scenario is edited.
  // Hashed only if a cache asks: most runs have none, and it is a hash of the scenario per attempt.
  let scope: string | undefined
  const scoped = <C extends object>(context: C): C & { readonly cacheScope: string } =>
    Object.defineProperty(context, 'cacheScope', { enumerable: true, get: () => (scope ??= `${scenarioFingerprint(scenario)}#${attemptNumber}`) }) as C & { readonly cacheScope: string }

  let conversation: Conversation | undefined
  try {
    try {
      conversation = await openConversation(deps.agent, steps)
      const userCalls = scoped({ signal: deps.signal, record: attempt.meters.user.record })
      await playTurns(attempt, conversation, { source, user: deps.user, mask: deps.mask, context: userCalls }, steps)
    } catch (error) {
      recordFailure(attempt, error)
    }
    if (conversation?.close) {
      try {
        await closeConversation(conversation, steps)
      } catch (error) {
        recordFailure(attempt, error)
      }
    }
  } finally {
    await served?.close()
  }

  const { checks, claims } = await decideAttempt(attempt, {
    judge: deps.judge,
    judging: !deps.smoke && deps.judging !== false,
    mask: deps.mask,
    context: scoped({ signal: deps.signal, record: attempt.meters.judge.record }),
    ...(served ? { served: served.record().calls, endState: served.endState } : {}),
  })
  await reviewFailure(attempt, checks, claims, {
    reviewer: source.kind === 'simulated' ? (deps.reviewer ?? null) : null,
    mask: deps.mask,
    context: scoped({ signal: deps.signal, record: attempt.meters.review.record }),
  })
  // The whole record is masked, the agent's answers included: an agent that echoes its request
  // headers must not put a token into attempts.jsonl and the pages made from it.
  const finished = attempt.finish(checks, claims, { prices: deps.prices, agentPrice: deps.agentPrice, userModel: deps.user?.model, judgeModel: deps.judge?.model, reviewModel: deps.reviewer?.model })
  return maskDeep(served ? { ...finished, tools: served.record() } : finished, deps.mask)
}

/** A failure of the agent or of convy-ci's models is the attempt's result; anything else (an interruption) ends the run. */
function recordFailure(attempt: AttemptBuilder, error: unknown): void {
  if (error instanceof AgentFailure || error instanceof NoVerdict) attempt.fail(error)
  else throw error
}
