/**
 * Everything a command needs from the outside world, passed in so commands run the same under tests
 * (in-process, with captured output) as from the terminal.
 */
export interface Output {
  write(text: string): void
}

export interface CliContext {
  cwd: string
  env: Readonly<Record<string, string | undefined>>
  stdout: Output
  stderr: Output
  /** stderr is a terminal: progress is a live line instead of one line per scenario. */
  interactive: boolean
  /** Aborted on SIGINT/SIGTERM. */
  signal: AbortSignal
  /** Node can import .ts files itself (22.18+, 24): agent modules need no compiler. */
  canStripTypes: boolean
  now: () => Date
}
