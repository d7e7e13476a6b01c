import * as z from '../../base/shared/zod.ts'

/**
 * What run.json records of adaptive attempts (issue 39, run --adaptive): the rule and its parameters
 * in `settings.adaptive`, and each scenario's attempts so far and why it stopped in `adaptive`. A run
 * without them played every scenario k times, as before. The rule itself is verdict/adaptive-rule.ts.
 */

/**
 * decided: not heading to Worse, or nothing further could make it Worse (futility);
 * worse: Worse on its own test; pooled-worse: the pooled test stopped the whole run early;
 * undecided: the ceiling reached, still undecided; no-baseline: nothing to compare it with, played k times.
 */
export const STOP_REASONS = ['decided', 'worse', 'pooled-worse', 'undecided', 'no-baseline'] as const
export type StopReason = (typeof STOP_REASONS)[number]

const ordinal = z.int().check(z.positive())
const level = z.number().check(z.positive(), z.lte(1))

export const AdaptiveSettingsSchema = z.object({
  /** The rule's name (verdict/adaptive-rule.ts: ADAPTIVE_RULE). */
  rule: z.string(),
  /** The run whose counts each look compares with: its id. */
  baseline: z.string(),
  /** The ceiling: attempts a scenario plays at most (run --max-attempts); the first round is settings.k. */
  maxAttempts: ordinal,
  scenarioAlpha: level,
  pooledAlpha: level,
  pooledKeep: level,
})
export type AdaptiveSettings = z.infer<typeof AdaptiveSettingsSchema>

/**
 * Attempts from the trend (issue 39 item 2, records/tally/attempts-by-history.ts): a baseline run's
 * attempts per scenario planned before it starts from the default branch's history, recorded in
 * `settings.attemptsByHistory` with the rule's numbers; each scenario's `planned` and why in `adaptive`.
 */
export const HISTORY_REASONS = ['stable', 'flaky', 'plain'] as const

export const AttemptsByHistorySettingsSchema = z.object({
  /** The rule's name (records/tally/attempts-by-history.ts: ATTEMPTS_BY_HISTORY_RULE). */
  rule: z.string(),
  /** Runs of the agent in the history the plan was drawn from. */
  runs: z.int().check(z.nonnegative()),
  stableRuns: ordinal,
  stableAttempts: ordinal,
  flakyRuns: ordinal,
  window: ordinal,
  flakyFactor: z.number().check(z.gte(1)),
  /** The most attempts any scenario was given: replays of user errors are numbered after it. */
  ceiling: ordinal,
})
export type AttemptsByHistorySettings = z.infer<typeof AttemptsByHistorySettingsSchema>

export const AdaptiveScenarioRecordSchema = z.object({
  /** Attempts given to it so far: the end of its current round, or of its last. */
  planned: ordinal,
  /** Why it stopped; null while it is playing (or was, when the run was interrupted), and in a run planned from the history. */
  stopped: z.nullable(z.enum(STOP_REASONS)),
  /** Planned from the history: why it got `planned` (stable, flaky or plain) and over how many runs. */
  history: z.optional(z.object({ reason: z.enum(HISTORY_REASONS), runs: z.int().check(z.nonnegative()) })),
})
export type AdaptiveScenarioRecord = z.infer<typeof AdaptiveScenarioRecordSchema>

export const AdaptiveRecordSchema = z.object({ scenarios: z.record(z.string(), AdaptiveScenarioRecordSchema) })
export type AdaptiveRecord = z.infer<typeof AdaptiveRecordSchema>

/** The most attempts a scenario of the run can get: the ceiling of an adaptive run or of one planned from the history, else k. Replays of user errors are numbered after it. */
export function attemptCeiling(settings: { k: number; adaptive?: AdaptiveSettings | undefined; attemptsByHistory?: AttemptsByHistorySettings | undefined }): number {
  return settings.adaptive?.maxAttempts ?? settings.attemptsByHistory?.ceiling ?? settings.k
}

/**
 * The attempts a scenario was meant to have: what the adaptive rule or the history gave it, else k. An adaptive
 * shard's record names only the scenarios it owns (run --adaptive --shard): the others are not its to play.
 * A scenario the run does not list at all (removed by the pull request) was meant to have at least the
 * first round, k: counted against the run as missing, as without adaptive.
 */
export function plannedAttempts(manifest: { settings: { k: number }; adaptive?: AdaptiveRecord | undefined; scenarios?: readonly { id: string }[] }, scenario: string): number {
  if (!manifest.adaptive) return manifest.settings.k
  const planned = manifest.adaptive.scenarios[scenario]?.planned
  if (planned !== undefined) return planned
  return manifest.scenarios && !manifest.scenarios.some((s) => s.id === scenario) ? manifest.settings.k : 0
}

/** The attempts a run is meant to have: every scenario's planned attempts in an adaptive run (the rounds given so far), else scenarios × k. */
export function expectedAttempts(manifest: { scenarios: readonly { id: string }[]; settings: { k: number }; adaptive?: AdaptiveRecord | undefined }): number {
  return manifest.scenarios.reduce((sum, s) => sum + plannedAttempts(manifest, s.id), 0)
}

/** "decided after 3", "undecided at 10", "Worse after 5": why a scenario stopped where it did. */
export function stopWords(s: { played: number; stopped: StopReason | null }): string {
  switch (s.stopped) {
    case 'decided':
      return `decided after ${s.played}`
    case 'worse':
      return `Worse after ${s.played}`
    case 'pooled-worse':
      return `stopped after ${s.played}: the pass rate as a whole was Worse`
    case 'undecided':
      return `undecided at ${s.played}`
    case 'no-baseline':
      return `not in the baseline: ${s.played} played`
    case null:
      return `still playing at ${s.played} (interrupted)`
  }
}
