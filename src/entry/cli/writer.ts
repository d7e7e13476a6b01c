import type { Writer } from '../../records/journal/folder-lock.ts'
import { writerFor } from '../../records/journal/writer.ts'

/** This process as the writer of a run folder (journal/writer.ts). */
export function processWriter(command: string): Writer {
  return writerFor(process, command)
}
