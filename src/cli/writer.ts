import type { Writer } from '../journal/folder-lock.ts'
import { writerFor } from '../journal/writer.ts'

/** This process as the writer of a run folder (journal/writer.ts). */
export function processWriter(command: string): Writer {
  return writerFor(process, command)
}
