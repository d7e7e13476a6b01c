import type { Writer } from '../../records/journal/folder-lock.ts'
import type { RunProgress } from '../../play/runner/play-run.ts'
import type { WaitsView } from '../../play/runner/waits.ts'
import type { RunTally } from '../../records/tally/run-tally.ts'
import type { WatchAttempt } from '../../play/conversation/watch.ts'

/** Where a use case writes what the user reads: a terminal, the job log, or a test's buffer. */
export interface Output {
  write(text: string): void
}

/**
 * Everything a use case needs from the outside world, filled by an entry point (cli/main.ts,
 * action/main.ts) and passed in, so the same code runs under tests (in-process, with captured
 * output) as from the terminal or in a workflow.
 */
export interface PipelineContext {
  cwd: string
  env: Readonly<Record<string, string | undefined>>
  stdout: Output
  stderr: Output
  /** stderr is a terminal: progress is a live line instead of one line per scenario. */
  interactive: boolean
  /** Aborted on SIGINT/SIGTERM, or when the workflow is cancelled. */
  signal: AbortSignal
  /** Node can import .ts files itself (22.18+, 24): agent modules need no compiler. */
  canStripTypes: boolean
  now: () => Date
  /** This process as the writer of a run folder, for the folder's lock; `command` is what it runs. */
  writer: (command: string) => Writer
  /** How a run is shown while it plays and when it ends: the entry point's (entry/printers/). */
  printers: RunPrinters
}

export interface RunPrinters {
  /** Told of each attempt as it ends; `finish` once the run stops playing. */
  /** `waits`: the calls in flight, so the progress says who has answered nothing for a while (play/runner/waits.ts). */
  progress(ctx: PipelineContext, agent: string, todo: readonly { scenario: { id: string } }[], waits?: WaitsView): RunProgress & { finish(): void }
  /** What is printed when a run ends: a row per scenario, then the totals. */
  summary(agent: string, tally: RunTally): string
  /** `--verbose`: each attempt's dialogue written to `out` as it is played, then its decisions. */
  dialogue(out: Output, options: { parallel: number; k: number }): WatchAttempt
}
