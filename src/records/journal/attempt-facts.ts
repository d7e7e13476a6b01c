import type { Attempt, ErrorKind, Tokens, Turn, Verdict } from './records.ts'
import type { VerdictCounts } from './verdict-counts.ts'

/**
 * Facts about one attempt that every summary of a run counts the same way: the report, the
 * comparison, the budget and the CLI's summary.
 */

/**
 * What convy-ci's own models cost for an attempt — the simulated user, the judge and the review: the
 * harness's dollars, which the budget limits and which are never the agent's. Null when none was
 * priced, so "free" and "unknown" stay apart.
 */
export function harnessCostUsd(attempt: Attempt): number | null {
  const costs = [attempt.models.user?.costUsd, attempt.models.judge?.costUsd, attempt.models.review?.costUsd].filter((c): c is number => typeof c === 'number')
  return costs.length === 0 ? null : costs.reduce((a, b) => a + b, 0)
}

/** The agent's tokens over some turns, where it reported them; null when it reported none. */
export function agentTokensOf(turns: readonly Turn[]): Tokens | null {
  const reported = turns.filter((turn) => turn.tokens !== null)
  if (reported.length === 0) return null
  return reported.reduce((sum, turn) => ({ input: sum.input + turn.tokens!.input, output: sum.output + turn.tokens!.output }), { input: 0, output: 0 })
}

/** What tokens cost at a price in dollars per million tokens, [input, output]. */
export function tokensCostUsd(tokens: Tokens, price: readonly [number, number]): number {
  return (tokens.input * price[0] + tokens.output * price[1]) / 1e6
}

/** What the agent's own tokens cost, at its `price` in convy.yml: what `--fail-on-costlier` compares. Null without a price. */
export function agentCostUsd(attempt: Attempt): number | null {
  return typeof attempt.agentCostUsd === 'number' ? attempt.agentCostUsd : null
}

/**
 * A set-up error (`errorKind: setup`) is an agent_error that is not the agent's behaviour: the world
 * could not be made. It is counted with the attempts without a verdict, never as a failed attempt of
 * the agent, so a comparison counts it as evidence missing.
 */
export function countVerdict(counts: VerdictCounts, verdict: Verdict, errorKind?: ErrorKind): void {
  if (verdict === 'passed') counts.passed++
  else if (verdict === 'failed') counts.failed++
  else if (verdict === 'agent_error' && errorKind !== 'setup') counts.agentErrors++
  else if (verdict === 'user_error') counts.userErrors++
  else if (verdict === 'not_decided') counts.notDecided++
  else counts.noVerdicts++
}

/** The agent's answers: its turns that did not fail. A failed turn is not an answer, and has no time worth averaging. */
export function answers(turns: readonly Turn[]): Turn[] {
  return turns.filter((turn) => turn.role === 'agent' && turn.error === null)
}

/** What a summary keeps of an attempt's world. */
export interface WorldFacts {
  /** `setup`: the agent_error came from set-up or tear-down, not the agent (counted without a verdict). */
  errorKind?: ErrorKind
  /** The context the agent got, masked; a large one (a seeded database) as the start of its JSON, so a count stays bounded. */
  context?: Record<string, unknown>
}

export function worldFacts(attempt: Attempt): WorldFacts {
  const json = attempt.context && JSON.stringify(attempt.context)
  return {
    ...(attempt.errorKind ? { errorKind: attempt.errorKind } : {}),
    ...(attempt.context && json ? { context: json.length <= 4_000 ? attempt.context : { '(cut)': `${json.slice(0, 4_000)}…` } } : {}),
  }
}
