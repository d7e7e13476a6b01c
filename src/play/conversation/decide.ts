import type { CheckResult, ClaimResult, EndedBy, ServedCall } from '../../records/journal/records.ts'
import { callsByAnswer, type SeenCall } from '../../records/journal/tool-evidence.ts'
import type { DialogueLine } from './dialogue.ts'
import { answers } from '../../records/journal/attempt-facts.ts'
import { runChecks } from '../judge/checks.ts'
import type { ModelCallContext } from '../../adapters/model-client/model-call.ts'
import { errorMessage } from '../../base/shared/errors.ts'
import { maskDeep, type Mask } from '../../base/shared/secrets.ts'
import type { AttemptBuilder } from './attempt-builder.ts'
import { NoVerdict, throwIfInterrupted } from './failures.ts'
import type { Judge } from './roles.ts'
import { withContext } from './world-steps.ts'

const ENDED_LOST = new Set<EndedBy | undefined>(['stop_check', 'stop_if', 'limit'])

export interface Deciding {
  judge: Judge | null
  /** Ask the judge about the claims; false for --smoke and a replay that decides the checks only. */
  judging: boolean
  mask: Mask
  /** The judge's call: counted, cancelled and cached per attempt. */
  context: ModelCallContext
  /** The calls convy-ci's tools served (play/tools/): evidence for the checks and the judge beside what the agent reports. */
  served?: readonly ServedCall[]
  /** The scenario's end-state checks, decided after the dialogue (play/tools/end-state.ts). */
  endState?: () => CheckResult[]
}

/**
 * convy-ci's checks, then the judge, on the whole dialogue of an attempt that did not fail. A judge
 * that gives no verdict fails the attempt (no_verdict) and keeps the checks.
 */
export async function decideAttempt(attempt: AttemptBuilder, deciding: Deciding): Promise<{ checks: CheckResult[]; claims: ClaimResult[] }> {
  if (attempt.failure) return { checks: [], claims: [] }
  const { scenario } = attempt
  const answered = answers(attempt.turns)
  const calls = callsByAnswer(answered.length, answered.map((t) => t.toolCalls ?? []), deciding.served)
  const checks = [
    ...(await runChecks(scenario.checks, answered.map((t) => t.text), calls, { signal: deciding.context.signal, context: attempt.context })),
    ...attempt.worldChecks,
    ...(deciding.endState?.() ?? []),
  ]
  // A fatal check, a stop_if claim or a limit decided the attempt: the judge is not asked about a conversation already lost.
  if (!deciding.judging || ENDED_LOST.has(attempt.endedBy) || scenario.judge.length === 0) return { checks, claims: [] }
  try {
    return { checks, claims: await judgeDialogue(attempt, deciding, calls) }
  } catch (error) {
    if (!(error instanceof NoVerdict)) throw error
    attempt.fail(error)
    return { checks, claims: [] }
  }
}

async function judgeDialogue(attempt: AttemptBuilder, { judge, mask, context, served }: Deciding, calls: readonly SeenCall[][]): Promise<ClaimResult[]> {
  const failed = (error: string) => new NoVerdict(`the judge (${judge?.model}) gave no verdict: ${error}`)
  if (!judge) throw failed('no judge model is configured')
  const { scenario } = attempt
  try {
    // The judge does not need a secret the agent echoed: it sees the dialogue masked, as it is recorded.
    // With served tools, each answer's calls are the evidence (tool-evidence.ts): served ones marked.
    const dialogue = served?.length ? withCalls(attempt.dialogue, calls) : attempt.dialogue
    const decisions = await judge.decide(withContext(scenario, attempt.context, mask), maskDeep(dialogue, mask), context)
    return scenario.judge.map((claim, i) => ({ claim, pass: decisions[i]!.pass, reason: decisions[i]!.reason, ...(decisions[i]!.votes ? { votes: decisions[i]!.votes } : {}) }))
  } catch (cause) {
    throwIfInterrupted(context.signal)
    throw failed(mask(errorMessage(cause)))
  }
}

/** The dialogue with each answer's calls replaced by the evidence: reported and served, each once. */
function withCalls(dialogue: readonly DialogueLine[], calls: readonly SeenCall[][]): DialogueLine[] {
  let answer = 0
  return dialogue.map((line) => {
    if (line.role !== 'agent') return line
    const { toolCalls: _reported, ...rest } = line
    const seen = calls[answer++] ?? []
    return seen.length ? { ...rest, toolCalls: seen } : rest
  })
}
