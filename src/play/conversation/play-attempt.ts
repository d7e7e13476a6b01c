import type { Agent, Conversation, ScenarioTools } from '../agents/agent.ts'
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
import { afterAnswer, setUp, tearDown, type WorldSteps } from './world-steps.ts'
import { limitChecks } from '../world/limits.ts'
import { scenarioWorld, type RunWorld } from '../world/prepare-world.ts'
import type { AttemptWatcher } from './watch.ts'
import { openAttemptTools, type AttemptTools } from '../tools/attempt-tools.ts'
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
  /**
   * The run's world (play/world/): each scenario's context over the agent's, its set-up, tear-down and
   * limits. Absent: the scenario's own context and limits, and HTTP set-ups only.
   */
  world?: RunWorld
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
  const run = deps.world ?? scenarioWorld()
  const world: WorldSteps = { run, world: run.of(scenario), session, turnTimeoutSeconds: deps.turnTimeoutSeconds, signal: deps.signal, mask: deps.mask }
  const source: LineSource = replayLines ? { kind: 'replay', lines: replayLines } : { kind: userSource(scenario, deps.smoke) }
  // The model cache keeps each attempt's calls apart, and forgets them when the scenario is edited.
  // Hashed only if a cache asks: most runs have none, and it is a hash of the scenario per attempt.
  let scope: string | undefined
  const scoped = <C extends object>(context: C): C & { readonly cacheScope: string } =>
    Object.defineProperty(context, 'cacheScope', { enumerable: true, get: () => (scope ??= `${scenarioFingerprint(scenario)}#${attemptNumber}`) }) as C & { readonly cacheScope: string }

  const startedAt = clock()
  let served: AttemptTools | null = null
  // Tear-down runs after every attempt that began, interrupted ones included (then the error goes on).
  try {
    if (await setUp(attempt, world)) {
      // The scenario's tools (play/tools/): served once the world is set up, so their answers read its context.
      served = await openAttemptTools(scenario, attemptNumber, { context: () => attempt.context, at: () => (clock() - startedAt) / 1000, turns: attempt.turns, listen: deps.toolsListen })
      if (served) attempt.context = { ...attempt.context, tools_url: served.url }
      await converse(attempt, world, source, deps, scoped, startedAt, served?.tools)
    }
  } finally {
    await served?.close()
    await tearDown(attempt, world)
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
  const finished = attempt.finish(checks, claims, { prices: deps.prices, agentPrice: deps.agentPrice, userModel: deps.user?.modelFor?.(scenario) ?? deps.user?.model, judgeModel: deps.judge?.model, reviewModel: deps.reviewer?.model })
  return maskDeep(served ? { ...finished, tools: served.record() } : finished, deps.mask)
}

type Scoped = <C extends object>(context: C) => C & { readonly cacheScope: string }

/** The conversation itself: opened, played turn by turn, closed; then the limits it kept. */
async function converse(attempt: AttemptBuilder, world: WorldSteps, source: LineSource, deps: PlayDependencies, scoped: Scoped, startedAt: number, tools?: ScenarioTools): Promise<void> {
  const steps: StepOptions = { session: world.session, context: attempt.context, ...(tools ? { tools } : {}), turnTimeoutSeconds: deps.turnTimeoutSeconds, signal: deps.signal, mask: deps.mask, clock: attempt.clock }
  // stop_if needs the judge after each answer: not under --smoke, nor in a replay that does not judge.
  const stopJudge = deps.smoke || deps.judging === false ? null : deps.judge
  let conversation: Conversation | undefined
  try {
    conversation = await openConversation(deps.agent, steps)
    const userCalls = scoped({ signal: deps.signal, record: attempt.meters.user.record })
    const ending = afterAnswer(attempt, world, stopJudge, scoped({ signal: deps.signal, record: attempt.meters.judge.record }), startedAt)
    await playTurns(attempt, conversation, { source, user: deps.user, mask: deps.mask, context: userCalls }, steps, ending)
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
  if (stopJudge && attempt.endedBy !== 'stop_if') {
    for (const claim of attempt.scenario.stopIf ?? []) attempt.worldChecks.push({ kind: 'stop_if', value: claim, pass: true, detail: 'did not hold after any answer' })
  }
  attempt.worldChecks.push(...limitChecks(world.world.limits, { turns: attempt.turns, elapsedMs: attempt.clock() - startedAt, agentPrice: deps.agentPrice }))
}

/** A failure of the agent or of convy-ci's models is the attempt's result; anything else (an interruption) ends the run. */
function recordFailure(attempt: AttemptBuilder, error: unknown): void {
  if (error instanceof AgentFailure || error instanceof NoVerdict) attempt.fail(error)
  else throw error
}
