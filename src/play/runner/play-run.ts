import { randomUUID } from 'node:crypto'
import { setMaxListeners } from 'node:events'
import { playAttempt, type PlayDependencies } from '../conversation/play-attempt.ts'
import type { Attempt } from '../../records/journal/records.ts'
import type { RunJournal } from '../../records/journal/run-journal.ts'
import { Budget } from './budget.ts'
import type { PlannedAttempt } from './select-scenarios.ts'
import { replayOf } from './replay-user-errors.ts'
import type { WatchAttempt } from '../conversation/watch.ts'

export interface RunProgress {
  /** Called once per recorded attempt, in the order attempts end. */
  attemptRecorded(attempt: Attempt): void
  /** An attempt added to the plan while the run plays (a replay of a user_error attempt), before the one that caused it is recorded. */
  attemptAdded?(scenario: string): void
}

export interface PlayRunOptions {
  journal: RunJournal
  todo: readonly PlannedAttempt[]
  parallel: number
  play: Omit<PlayDependencies, 'signal'>
  /** Aborting stops new attempts and cancels the ones in flight; finished ones stay recorded. */
  signal: AbortSignal
  progress?: RunProgress
  /** Stops starting attempts before spending passes the budget; default: no limit. */
  budget?: Budget
  /** Watches each attempt as it is played (run --verbose): its turns, then the recorded attempt. */
  watch?: WatchAttempt
  /**
   * Replays each attempt the review relabels user_error, once, with a fresh simulated user, numbered
   * `k` after it (replay.ts); null or absent: none. Review on, this is what lets the gate count it.
   */
  replayUserErrors?: { k: number } | null
  /**
   * Adaptive rounds (rounds.ts): after each recorded attempt, the attempts its scenario plays next, if
   * that attempt ended its round. Workers with nothing to do wait for them while attempts are in flight.
   */
  rounds?: { attemptRecorded(attempt: Attempt): Promise<PlannedAttempt[]> } | undefined
}

export interface PlayRunResult {
  recorded: number
  interrupted: boolean
  /** Attempts were left unplayed because the budget would have been passed. */
  stoppedForBudget: boolean
}

/**
 * Plays the planned attempts with at most `parallel` conversations at once, writing each attempt to
 * the journal as it ends. An interruption never records a partial attempt: resume plays it again.
 */
export async function playRun(options: PlayRunOptions): Promise<PlayRunResult> {
  const { journal } = options
  // The plan grows by the replays of user_error attempts as they are recorded.
  const todo: PlannedAttempt[] = [...options.todo]
  // One signal for all the run's attempts: each in-flight step listens to it, so lift Node's
  // listener-count warning, which assumes a handful of listeners.
  const stop = new AbortController()
  setMaxListeners(0, stop.signal)
  const signal = stop.signal
  if (options.signal.aborted) stop.abort(options.signal.reason)
  else options.signal.addEventListener('abort', () => stop.abort(options.signal.reason), { once: true })
  const budget = options.budget ?? new Budget(null)
  let next = 0
  let recorded = 0
  let inFlight = 0
  // Resolved each time an attempt ends: a worker the budget holds back waits for it and looks again.
  let attemptEnded = signalled()
  // Attempts started and not yet settled (recorded, and the rounds told): more work may still come of them.
  let unsettled = 0
  let settledOne = signalled()
  const worker = async (): Promise<void> => {
    while (!signal.aborted) {
      if (next >= todo.length) {
        // Without rounds, nothing is added once the plan is taken but replays, which are pushed before
        // their original ends; with rounds, the next round of a scenario comes when its round ends.
        if (!options.rounds || unsettled === 0) return
        await settledOne.promise
        continue
      }
      if (!budget.allows(inFlight)) {
        if (inFlight === 0) return
        await attemptEnded.promise
        continue
      }
      const planned = todo[next++]!
      inFlight++
      unsettled++
      let attempt: Attempt
      const watcher = options.watch?.(planned.scenario, planned.attempt)
      try {
        // A replay is not reviewed: its verdict is the evidence, and a reviewer that blames the user for every failure must not launder it twice.
        const reviewer = planned.replayOf === undefined ? options.play.reviewer : null
        attempt = await playAttempt(planned.scenario, planned.attempt, randomUUID(), { ...options.play, reviewer, signal, watcher }, planned.userLines)
      } catch (error) {
        settle()
        if (signal.aborted) return
        throw error
      } finally {
        inFlight--
        // Waiters wake after this turn of the event loop, so they see the budget recorded below.
        attemptEnded.resolve()
        attemptEnded = signalled()
      }
      if (planned.replayOf !== undefined) attempt = { ...attempt, replayOf: planned.replayOf }
      budget.record(attempt)
      const replay = options.replayUserErrors ? replayOf(planned, attempt, options.replayUserErrors.k) : null
      if (replay && !signal.aborted) {
        todo.push(replay)
        options.progress?.attemptAdded?.(replay.scenario.id)
      }
      // Once interrupted, an attempt that still finished is kept: it is whole.
      await journal.append(attempt)
      recorded++
      watcher?.ended(attempt)
      options.progress?.attemptRecorded(attempt)
      try {
        if (options.rounds && !signal.aborted) {
          for (const more of await options.rounds.attemptRecorded(attempt)) {
            todo.push(more)
            options.progress?.attemptAdded?.(more.scenario.id)
          }
        }
      } finally {
        settle()
      }
    }
  }
  const settle = () => {
    unsettled--
    settledOne.resolve()
    settledOne = signalled()
  }
  // With rounds, every worker is started: later rounds fill --parallel even when the first is small.
  const workers = Array.from({ length: Math.max(1, Math.min(options.parallel, options.rounds ? options.parallel : todo.length)) }, worker)
  await Promise.all(workers)
  // Only the budget makes workers stop early without an interruption.
  return { recorded, interrupted: signal.aborted, stoppedForBudget: !signal.aborted && next < todo.length }
}

/** A promise with its resolve function (Promise.withResolvers, which Node 20 lacks). */
function signalled(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void
  const promise = new Promise<void>((done) => (resolve = done))
  return { promise, resolve }
}
