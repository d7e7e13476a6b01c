import type { DialogueLine, Judge } from '../conversation/roles.ts'
import type { Attempt, ClaimResult } from '../../records/journal/records.ts'
import { attemptCalls } from '../../records/journal/tool-evidence.ts'
import { ModelMeter } from '../../adapters/model-client/model-meter.ts'
import { scenarioFingerprint, type Scenario } from '../../records/scenario/scenario.ts'
import { errorMessage } from '../../base/shared/errors.ts'
import type { Mask } from '../../base/shared/secrets.ts'

export interface Rejudging {
  /** The judge, sampled as many times as asked (sampled-judge.ts). */
  judge: Judge
  mask: Mask
  signal: AbortSignal
  prices: Readonly<Record<string, readonly [number, number]>>
  now: () => Date
}

/**
 * Whether the judge can be asked again about an attempt: its dialogue must be whole. An agent error
 * or a fatal check decided it without the judge, the review of the simulated user made it user_error; a conversation cut by convy-ci's simulated user
 * failing, or interrupted, is not the dialogue the judge should see. Runs from before `endedBy` tell
 * a judge's own failure by its message.
 */
export function canRejudge(attempt: Attempt, scenario: Scenario, options: { reviewAgain?: boolean } = {}): boolean {
  // The review's user_error and a not_decided attempt are not the judge's to change, unless the
  // review is done again too (a baseline judged with the PR's judge and review).
  if (attempt.verdict === 'user_error' && !options.reviewAgain) return false
  if (scenario.judge.length === 0 || attempt.verdict === 'agent_error' || attempt.verdict === 'not_decided') return false
  if (attempt.endedBy !== undefined) return attempt.endedBy === 'user_stop' || attempt.endedBy === 'max_turns'
  return attempt.verdict !== 'no_verdict' || (attempt.error ?? '').startsWith('the judge')
}

/**
 * The attempt judged again on its recorded dialogue: new claims (with their votes), the recorded
 * checks, and the verdict they give; the judge's calls replace the recorded ones. A judge that gives
 * no verdict leaves the attempt without one, never failed.
 */
export async function rejudgeAttempt(attempt: Attempt, scenario: Scenario, rejudging: Rejudging): Promise<Attempt> {
  const started = performance.now()
  const meter = new ModelMeter()
  const context = { signal: rejudging.signal, record: meter.record, cacheScope: `${scenarioFingerprint(scenario)}#${attempt.attempt}` }
  let claims: ClaimResult[] = []
  let error: string | null = null
  try {
    const decisions = await rejudging.judge.decide(scenario, dialogueOf(attempt), context)
    claims = scenario.judge.map((claim, i) => ({ claim, pass: decisions[i]!.pass, reason: rejudging.mask(decisions[i]!.reason), ...(decisions[i]!.votes ? { votes: decisions[i]!.votes } : {}) }))
  } catch (cause) {
    if (rejudging.signal.aborted) throw cause
    error = `the judge (${rejudging.judge.model}) gave no verdict: ${rejudging.mask(errorMessage(cause))}`
  }
  const passed = attempt.checks.every((c) => c.pass) && claims.every((c) => c.pass)
  return {
    ...attempt,
    verdict: error ? 'no_verdict' : passed ? 'passed' : 'failed',
    error,
    claims,
    models: { user: attempt.models.user, judge: meter.toUse(rejudging.judge.model, rejudging.prices) },
    startedAt: rejudging.now().toISOString(),
    seconds: (performance.now() - started) / 1000,
  }
}

/**
 * The dialogue as the judge saw it when the attempt was played: what was said, with the agent's tool
 * calls, and those convy-ci's tools served (each call once, tool-evidence.ts).
 */
export function dialogueOf(attempt: Attempt): DialogueLine[] {
  const calls = attempt.tools ? attemptCalls(attempt.turns, attempt.tools.calls) : null
  let answer = 0
  return attempt.turns
    .filter((turn) => turn.error === null)
    .map((turn): DialogueLine => {
      if (turn.role !== 'agent') return { role: turn.role, text: turn.text }
      const toolCalls = calls ? (calls[answer++] ?? []) : (turn.toolCalls ?? [])
      return toolCalls.length ? { role: 'agent', text: turn.text, toolCalls } : { role: 'agent', text: turn.text }
    })
}
