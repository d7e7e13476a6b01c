import type { Attempt } from '../../records/journal/records.ts'
import type { PlannedAttempt } from './select-scenarios.ts'

/**
 * The replay of an attempt the review relabelled user_error: the same scenario played once more with
 * a fresh simulated user, whose verdict counts where the relabelled one cannot (issue 21: evidence,
 * not an excuse). A replay is numbered k after its original (attempt 2 of k = 5 is replayed as 7),
 * so the numbers stay unique across shards and resumes with no counter to share, and it records
 * `replayOf`. Only once, and unreviewed (play-run.ts): its verdict, passed or failed, is what counts.
 */
export function replayOf(planned: PlannedAttempt, recorded: Attempt, k: number): PlannedAttempt | null {
  if (recorded.verdict !== 'user_error' || planned.replayOf !== undefined || planned.userLines || planned.attempt > k) return null
  return { scenario: planned.scenario, attempt: planned.attempt + k, replayOf: planned.attempt }
}

/**
 * The replays a resumed run still owes: each recorded user_error attempt (not itself a replay) whose
 * replay is not recorded. The attempts of a run, as read back.
 */
export function missingReplays(recorded: readonly Attempt[], scenarios: ReadonlyMap<string, PlannedAttempt['scenario']>, k: number): PlannedAttempt[] {
  const have = new Set(recorded.map((a) => `${a.scenario}\u0000${a.attempt}`))
  return recorded.flatMap((attempt) => {
    const scenario = scenarios.get(attempt.scenario)
    if (!scenario || attempt.replayOf !== undefined) return []
    const replay = replayOf({ scenario, attempt: attempt.attempt }, attempt, k)
    return replay && !have.has(`${attempt.scenario}\u0000${replay.attempt}`) ? [replay] : []
  })
}
