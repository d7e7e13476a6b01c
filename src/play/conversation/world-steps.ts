import type { EndedBy } from '../../records/journal/records.ts'
import type { Scenario } from '../../records/scenario/scenario.ts'
import type { ModelCallContext } from '../../adapters/model-client/model-call.ts'
import { errorMessage } from '../../base/shared/errors.ts'
import { maskDeep, type Mask } from '../../base/shared/secrets.ts'
import type { AttemptWorld, PlacedHook } from '../world/attempt-world.ts'
import { hasKey } from '../world/context-needs.ts'
import { limitPassed } from '../world/limits.ts'
import type { RunWorld } from '../world/prepare-world.ts'
import type { AttemptBuilder } from './attempt-builder.ts'
import { NoVerdict, throwIfInterrupted } from './failures.ts'
import type { Judge } from './roles.ts'
import { withStepTimeout } from './step-timeout.ts'

/**
 * The steps of an attempt that make and clear its world (play/world/): set-up before the
 * conversation, tear-down after it, and what ends it early besides the agent: a `stop_if` claim the
 * judge finds holding after an answer, or a limit passed.
 */
export interface WorldSteps {
  run: RunWorld
  world: AttemptWorld
  session: string
  turnTimeoutSeconds: number
  signal: AbortSignal
  mask: Mask
}

/** The scenario as convy-ci's models see it in this attempt: with the attempt's context, masked. */
export function withContext(scenario: Scenario, context: Readonly<Record<string, unknown>>, mask: Mask): Scenario {
  return Object.keys(context).length === 0 ? scenario : { ...scenario, context: maskDeep(context, mask) }
}

/**
 * Runs the set-up and merges its JSON map into the context; false when it failed (recorded as an
 * agent error of kind `setup`: the attempt is not played). A key the attempt needs that is still
 * missing after it fails the set-up, naming the key.
 */
export async function setUp(attempt: AttemptBuilder, steps: WorldSteps): Promise<boolean> {
  attempt.context = { ...steps.world.context }
  const { setup } = steps.world
  if (!setup) return true
  let answer: unknown
  try {
    answer = await runHook(setup, attempt, steps, steps.signal)
  } catch (error) {
    throwIfInterrupted(steps.signal)
    attempt.failSetup(`set-up failed: ${steps.mask(errorMessage(error))}`)
    return false
  }
  if (answer !== null && answer !== undefined) {
    if (typeof answer !== 'object' || Array.isArray(answer)) {
      attempt.failSetup(`set-up failed: it answered ${steps.mask(JSON.stringify(answer) ?? String(answer)).slice(0, 200)}, not a JSON map of context keys`)
      return false
    }
    attempt.context = { ...attempt.context, ...(answer as Record<string, unknown>) }
  }
  const missing = steps.run.needs(attempt.scenario).find((need) => !hasKey(attempt.context, need.key))
  if (missing) {
    attempt.failSetup(`set-up failed: the context has no ${missing.key} after set-up, and ${missing.path.join('.')}${missing.file === 'config' ? ' in convy.yml' : ''} uses {context.${missing.key}}`)
    return false
  }
  return true
}

/**
 * Runs the tear-down, whatever happened to the attempt, interrupted included: it gets its own signal
 * and the turn timeout, as the run's may be aborted already. A failure is an agent error of kind
 * `setup` when the attempt had none: a world left behind may change the attempts after it.
 */
export async function tearDown(attempt: AttemptBuilder, steps: WorldSteps): Promise<void> {
  const { teardown } = steps.world
  if (!teardown) return
  try {
    await runHook(teardown, attempt, steps, new AbortController().signal)
  } catch (error) {
    attempt.failSetup(`tear-down failed: ${steps.mask(errorMessage(error))}`)
  }
}

function runHook(hook: PlacedHook, attempt: AttemptBuilder, steps: WorldSteps, signal: AbortSignal): Promise<unknown> {
  return withStepTimeout(steps.turnTimeoutSeconds, signal, (stepSignal) => steps.run.hooks.run(hook, attempt.scenario.id, { session: steps.session, attempt: attempt.attemptNumber, context: attempt.context, signal: stepSignal }))
}

/**
 * After each answer: whether the attempt ends there. A limit that ends an attempt (its time, the
 * agent's tokens) is checked first, for free; then each `stop_if` claim is put to the judge, one call
 * for all of them per answer. The first claim that holds ends the attempt, failed, with a failed check
 * naming it. Without a judge (--smoke) the claims are not checked.
 */
export function afterAnswer(attempt: AttemptBuilder, steps: WorldSteps, judge: Judge | null, context: ModelCallContext, startedAt: number): () => Promise<EndedBy | null> {
  const claims = attempt.scenario.stopIf ?? []
  return async () => {
    if (limitPassed(steps.world.limits, { turns: attempt.turns, elapsedMs: attempt.clock() - startedAt })) return 'limit'
    if (claims.length === 0 || judge === null) return null
    const scenario = { ...withContext(attempt.scenario, attempt.context, steps.mask), judge: [...claims] }
    let decisions
    try {
      decisions = await judge.decide(scenario, maskDeep(attempt.dialogue, steps.mask), context)
    } catch (cause) {
      throwIfInterrupted(context.signal)
      throw new NoVerdict(`the judge (${judge.model}) gave no verdict on stop_if: ${steps.mask(errorMessage(cause))}`)
    }
    const held = decisions.findIndex((decision) => decision.pass)
    if (held < 0) return null
    const answer = attempt.turns.filter((turn) => turn.role === 'agent').length
    attempt.worldChecks.push({ kind: 'stop_if', value: claims[held]!, pass: false, detail: `held after answer ${answer}: ${decisions[held]!.reason}` })
    return 'stop_if'
  }
}
