import { hostname } from 'node:os'
import type { Writer } from '../journal/folder-lock.ts'

/**
 * This process as the writer of a run folder: what a lock records, and how a stale lock is told
 * from a live one (a pid that no longer exists on this host).
 */
export function processWriter(command: string): Writer {
  // The command is shown to whoever meets the lock: no control or bidi characters reach a terminal.
  return { pid: process.pid, host: hostname(), command: command.replace(/[\p{Cc}\u202a-\u202e\u2066-\u2069]/gu, '?').slice(0, 200), isAlive }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    // EPERM: it exists, as another user's process.
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}
