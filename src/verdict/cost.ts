import type { AttemptDigest, RunTally } from '../records/tally/run-tally.ts'
import { measureChanges, risenPast, type Measured, type MeasureOf } from './attempt-measures.ts'

/**
 * Whether the agent costs more or less per attempt, beyond noise, overall and per scenario, in two
 * measures: its tokens (in and out, as it reports them) and its dollars (its tokens at its `price` in
 * convy.yml, each run at its own run.json's price). Only the agent's own: what convy-ci's models cost
 * (the simulated user, the judge, the review) is the harness's, reported beside it and never compared
 * here — an agent that fails sooner, or a review that runs on failures, is not a costlier agent.
 * Compared as attempt-measures.ts compares any per-attempt measure.
 *
 * Left out: agent errors (a conversation cut short costs less for the wrong reason).
 */
export interface Cost {
  tokens: Measured
  dollars: Measured
}

export const AGENT_TOKENS: MeasureOf = {
  value: (a: AttemptDigest) => (a.verdict === 'agent_error' || a.agentTokens === null ? null : a.agentTokens.input + a.agentTokens.output),
  floor: 1,
}

export const DOLLARS: MeasureOf = {
  value: (a: AttemptDigest) => (a.verdict === 'agent_error' ? null : a.agentCostUsd),
  floor: 1e-6,
}

/** `ids`: the scenarios both runs played alike. */
export function costChanges(before: RunTally, after: RunTally, ids: readonly string[]): Cost {
  return { tokens: measureChanges(before, after, ids, AGENT_TOKENS), dollars: measureChanges(before, after, ids, DOLLARS) }
}

/**
 * `--fail-on-costlier PCT`: fails when the agent's tokens or its dollars per attempt rose beyond
 * noise, overall or in a scenario, by at least PCT percent; null when the gate holds.
 */
export function costlierThan(cost: Cost, percent: number): { reason: string; scenarios: string[] } | null {
  const found = (['tokens', 'dollars'] as const).flatMap((kind) => {
    const measured = cost[kind]
    const { overall, scenarios } = risenPast(measured, percent)
    const what = kind === 'tokens' ? "The agent's tokens per attempt" : "The agent's dollars per attempt"
    if (overall) return [{ reason: `${what} are ${measured.overall.ratio!.toFixed(2)} × the baseline's overall (p = ${measured.overall.pHigher.toPrecision(2)}), past the ${percent}% allowed (fail-on-costlier).`, scenarios: scenarios.map((s) => s.id) }]
    if (scenarios.length > 0) return [{ reason: `${what} rose past ${percent}% (fail-on-costlier): ${scenarios.map((s) => `${s.id} ${s.ratio!.toFixed(1)} ×`).join(', ')}.`, scenarios: scenarios.map((s) => s.id) }]
    return []
  })
  if (found.length === 0) return null
  return { reason: found.map((f) => f.reason).join(' '), scenarios: [...new Set(found.flatMap((f) => f.scenarios))] }
}
