import type { Attempt } from './records.ts'

/**
 * What an attempt cost in dollars: convy-ci's own models and, where convy.yml prices it, the agent.
 * Null when nothing in it was priced, so "free" and "unknown" stay apart.
 */
export function attemptCostUsd(attempt: Attempt): number | null {
  const costs = [attempt.models.user?.costUsd, attempt.models.judge?.costUsd, attempt.agentCostUsd].filter((c): c is number => typeof c === 'number')
  return costs.length === 0 ? null : costs.reduce((a, b) => a + b, 0)
}
