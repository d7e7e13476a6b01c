import type { RunTally } from '../records/tally/run-tally.ts'
import type { StopReason } from '../records/journal/adaptive-record.ts'

export { stopWords } from '../records/journal/adaptive-record.ts'

/**
 * What an adaptive run (issue 39) did, shown on the comparison's comment and page: each scenario's
 * attempts and why it stopped, and what it saved against playing every scenario to the ceiling.
 * Null for a run that played every scenario k times.
 */
export interface AdaptiveSummary {
  rule: string
  k: number
  maxAttempts: number
  /** Original attempts played (replays of user errors aside), and what fixed --max-attempts would have played. */
  played: number
  ceiling: number
  scenarios: { id: string; played: number; stopped: StopReason | null }[]
  /** Attempts not played, and the model calls and dollars they would have cost at this run's average per attempt (null: unpriced). */
  saved: { attempts: number; modelCalls: number; usd: number | null }
}

export function adaptiveSummary(after: RunTally): AdaptiveSummary | null {
  const { settings, adaptive } = after.manifest
  if (!settings.adaptive || !adaptive) return null
  const scenarios = Object.entries(adaptive.scenarios)
    .map(([id, entry]) => ({ id, played: (after.scenarios.get(id)?.attempts ?? []).filter((a) => a.attempt <= settings.adaptive!.maxAttempts).length, stopped: entry.stopped }))
    .sort((x, y) => (x.id < y.id ? -1 : x.id > y.id ? 1 : 0))
  const played = scenarios.reduce((sum, s) => sum + s.played, 0)
  const ceiling = scenarios.length * settings.adaptive.maxAttempts
  const unplayed = Math.max(0, ceiling - played)
  const perAttempt = (total: number) => (after.attempts === 0 ? 0 : total / after.attempts)
  return {
    rule: settings.adaptive.rule,
    k: settings.k,
    maxAttempts: settings.adaptive.maxAttempts,
    played,
    ceiling,
    scenarios,
    saved: {
      attempts: unplayed,
      modelCalls: Math.round(unplayed * perAttempt(after.modelCalls)),
      usd: after.costedAttempts === 0 ? null : unplayed * (after.costUsd / after.costedAttempts),
    },
  }
}
