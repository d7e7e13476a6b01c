import type { Writer } from './folder-lock.ts'

/** The parts of Node's `process` a writer needs; an entry point passes `process` itself. */
export interface ThisProcess {
  pid: number
  kill(pid: number, signal: 0): unknown
}

/**
 * This process as the writer of a run folder: what a lock records, and how a stale lock is told
 * from a live one (a pid that no longer exists on this host).
 */
export function writerFor(self: ThisProcess, command: string): Writer {
  // The command is shown to whoever meets the lock: no control or bidi characters reach a terminal.
  const shown = command.replace(/[\p{Cc}\u202a-\u202e\u2066-\u2069]/gu, '?').slice(0, 200)
  return {
    pid: self.pid,
    command: shown,
    isAlive(pid) {
      try {
        self.kill(pid, 0)
        return true
      } catch (error) {
        // EPERM: it exists, as another user's process.
        return (error as NodeJS.ErrnoException).code === 'EPERM'
      }
    },
  }
}
