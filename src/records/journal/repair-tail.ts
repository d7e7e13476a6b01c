import { open } from 'node:fs/promises'
import { AttemptSchema } from './records.ts'

const CHUNK = 64 * 1024

/**
 * Makes attempts.jsonl end at a line's end before more attempts are appended to it. What follows the
 * last newline is either a whole attempt whose newline was never written (kept: the newline is
 * added, and readers counted it as done) or a torn line from a killed process (cut: that attempt is
 * played again). Only the tail is read, however long the file.
 */
export async function repairTail(file: string): Promise<'whole' | 'completed' | 'cut' | 'none'> {
  let handle
  try {
    handle = await open(file, 'r+')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 'none'
    throw error
  }
  try {
    const size = (await handle.stat()).size
    if (size === 0) return 'whole'
    const chunks: Buffer[] = []
    let position = size
    let lineStart = 0
    while (position > 0) {
      const length = Math.min(CHUNK, position)
      position -= length
      const chunk = Buffer.alloc(length)
      await handle.read(chunk, 0, length, position)
      chunks.unshift(chunk)
      // The chunks after this one held no newline, so this one's last is the file's last.
      const newline = chunk.lastIndexOf(0x0a)
      if (newline !== -1) {
        lineStart = position + newline + 1
        break
      }
    }
    if (lineStart === size) return 'whole'
    const tail = Buffer.concat(chunks).subarray(lineStart - position).toString('utf8')
    if (isWholeAttempt(tail)) {
      await handle.write('\n', size)
      return 'completed'
    }
    await handle.truncate(lineStart)
    return 'cut'
  } finally {
    await handle.close()
  }
}

function isWholeAttempt(line: string): boolean {
  try {
    return AttemptSchema.safeParse(JSON.parse(line)).success
  } catch {
    return false
  }
}
