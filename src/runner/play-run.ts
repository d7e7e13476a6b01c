import { randomUUID } from 'node:crypto'
import { setMaxListeners } from 'node:events'
import { playAttempt, type PlayDependencies } from '../conversation/play-attempt.ts'
import type { Attempt } from '../journal/records.ts'
import type { RunJournal } from '../journal/run-journal.ts'
import type { PlannedAttempt } from './select-scenarios.ts'

export interface RunProgress {
  /** Called once per recorded attempt, in the order attempts end. */
  attemptRecorded(attempt: Attempt): void
}

export interface PlayRunOptions {
  journal: RunJournal
  todo: readonly PlannedAttempt[]
  parallel: number
  play: Omit<PlayDependencies, 'signal'>
  /** Aborting stops new attempts and cancels the ones in flight; finished ones stay recorded. */
  signal: AbortSignal
  progress?: RunProgress
}

export interface PlayRunResult {
  recorded: number
  interrupted: boolean
}

/**
 * Plays the planned attempts with at most `parallel` conversations at once, writing each attempt to
 * the journal as it ends. An interruption never records a partial attempt: resume plays it again.
 */
export async function playRun(options: PlayRunOptions): Promise<PlayRunResult> {
  const { journal, todo } = options
  // One signal for all the run's attempts: each in-flight step listens to it, so lift Node's
  // listener-count warning, which assumes a handful of listeners.
  const stop = new AbortController()
  setMaxListeners(0, stop.signal)
  const signal = stop.signal
  if (options.signal.aborted) stop.abort(options.signal.reason)
  else options.signal.addEventListener('abort', () => stop.abort(options.signal.reason), { once: true })
  let next = 0
  let recorded = 0
  const worker = async (): Promise<void> => {
    while (!signal.aborted && next < todo.length) {
      const planned = todo[next++]!
      let attempt: Attempt
      try {
        attempt = await playAttempt(planned.scenario, planned.attempt, randomUUID(), { ...options.play, signal })
      } catch (error) {
        if (signal.aborted) return
        throw error
      }
      // Once interrupted, an attempt that still finished is kept: it is whole.
      await journal.append(attempt)
      recorded++
      options.progress?.attemptRecorded(attempt)
    }
  }
  const workers = Array.from({ length: Math.max(1, Math.min(options.parallel, todo.length)) }, worker)
  await Promise.all(workers)
  return { recorded, interrupted: signal.aborted }
}
