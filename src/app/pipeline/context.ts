import type { Writer } from '../../records/journal/folder-lock.ts'

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
}
