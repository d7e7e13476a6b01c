import type { RunTally } from '../records/tally/run-tally.ts'
import { attemptAnswerSeconds, attemptFirstTokenSeconds } from '../records/tally/answer-time.ts'
import { measureChanges, risenPast, type Measured, type MeasureOf } from './attempt-measures.ts'
import { driftBound } from '../base/stats/run-drift.ts'

/**
 * Whether the agent answers slower or faster, beyond noise, overall and per scenario: each attempt's
 * mean answer time, compared as attempt-measures.ts compares any per-attempt measure — and only
 * past a difference that matters in practice and past the default branch's run-to-run drift, when
 * its recent runs are known (`noise` says which held, for the pages to say it).
 */
export type Speed = Measured & { noise: SpeedNoise }

export interface SpeedNoise {
  /** The smallest difference of the median answer times that is told (seconds). */
  minSeconds: number
  /** The default branch's recent runs: how many, and the ratio of two runs' median answer times that their drift stays under in 99 of 100 pairs (base/stats/run-drift.ts); null: not known. */
  drift: { runs: number; ratio: number } | null
}

/** 50 ms per answer: less is the machine's and the network's, not the agent's (CompareRunsOptions.minSpeedChangeSeconds). */
export const MIN_SPEED_CHANGE_SECONDS = 0.05
/** Runs of the default branch it takes to speak of their drift. */
export const MIN_DRIFT_RUNS = 3

export interface SpeedOptions {
  minSeconds?: number
  /** The median answer time of each of the default branch's recent runs (their summaries' `medianAnswerSeconds`). */
  history?: readonly (number | null)[]
}

/**
 * How far apart two runs' median answer times may be by drift alone, over three runs or more with
 * one. The largest ratio the runs showed is not enough: a new pair of runs passes the range of five
 * earlier ones about one time in twenty (bench/speed.ts measured 6% false "slower" at ±5% drift), so
 * the bound is the 99% prediction bound from their spread.
 */
export function runDrift(history: readonly (number | null)[] = []): SpeedNoise['drift'] {
  const medians = history.filter((m): m is number => m !== null && m > 0)
  if (medians.length < MIN_DRIFT_RUNS) return null
  return { runs: medians.length, ratio: driftBound(medians) }
}

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
export function speedChanges(before: RunTally, after: RunTally, ids: readonly string[], options: SpeedOptions = {}): Speed {
  const noise: SpeedNoise = { minSeconds: options.minSeconds ?? MIN_SPEED_CHANGE_SECONDS, drift: runDrift(options.history) }
  return { ...measureChanges(before, after, ids, ANSWER_TIME, { minDifference: noise.minSeconds, ...(noise.drift ? { drift: noise.drift.ratio } : {}) }), noise }
}

/** The same for the time to first token (agents that stream), past the same difference; told, never gated. */
export function firstTokenChanges(before: RunTally, after: RunTally, ids: readonly string[], options: SpeedOptions = {}): Speed {
  const noise: SpeedNoise = { minSeconds: options.minSeconds ?? MIN_SPEED_CHANGE_SECONDS, drift: null }
  return { ...measureChanges(before, after, ids, FIRST_TOKEN_TIME, { minDifference: noise.minSeconds }), noise }
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
