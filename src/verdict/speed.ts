import type { RunTally } from '../records/tally/run-tally.ts'
import { attemptAnswerSeconds, attemptFirstTokenSeconds } from '../records/tally/answer-time.ts'
import { measureChanges, risenPast, type Measured, type MeasureOf } from './attempt-measures.ts'

/**
 * Whether the agent answers slower or faster, beyond noise, overall and per scenario: each attempt's
 * mean answer time, compared as attempt-measures.ts compares any per-attempt measure.
 */
export type Speed = Measured

/** Attempts with at least one answer, agent errors left out (a timeout is not an answer time). */
export const ANSWER_TIME: MeasureOf = {
  value: attemptAnswerSeconds,
  floor: 0.001,
}

/** Each attempt's mean time to first token, over its answers that streamed; agent errors left out as above. */
export const FIRST_TOKEN_TIME: MeasureOf = {
  value: attemptFirstTokenSeconds,
  floor: 0.001,
}

/** `ids`: the scenarios both runs played alike. */
export function speedChanges(before: RunTally, after: RunTally, ids: readonly string[]): Speed {
  return measureChanges(before, after, ids, ANSWER_TIME)
}

/** The same for the time to first token (agents that stream); told, never gated. */
export function firstTokenChanges(before: RunTally, after: RunTally, ids: readonly string[]): Speed {
  return measureChanges(before, after, ids, FIRST_TOKEN_TIME)
}

/**
 * `--fail-on-slower PCT`: fails when the agent is slower beyond noise, overall or in a scenario, by
 * at least PCT percent; null when the gate holds.
 */
export function slowerThan(speed: Speed, percent: number): { reason: string; scenarios: string[] } | null {
  const { overall, scenarios } = risenPast(speed, percent)
  const ids = scenarios.map((s) => s.id)
  if (overall) return { reason: `Answers are ${speed.overall.ratio!.toFixed(2)} × slower overall (p = ${speed.overall.pHigher.toPrecision(2)}), past the ${percent}% allowed (fail-on-slower).`, scenarios: ids }
  if (scenarios.length > 0) return { reason: `Slower past ${percent}% (fail-on-slower): ${scenarios.map((s) => `${s.id} ${s.ratio!.toFixed(1)} ×`).join(', ')}.`, scenarios: ids }
  return null
}
