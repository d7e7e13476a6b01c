import type { Attempt, Turn } from '../../records/journal/records.ts'
import type { Scenario } from '../../records/scenario/scenario.ts'

/**
 * Sees an attempt as it happens: each turn the moment it is recorded (the user's line before the
 * agent answers it), masked as the record will be, then the whole attempt once it is decided and
 * recorded. For `run --verbose`; it only watches.
 */
export interface AttemptWatcher {
  turn(turn: Turn): void
  ended(attempt: Attempt): void
}

export type WatchAttempt = (scenario: Scenario, attempt: number) => AttemptWatcher
