import { createInterface } from 'node:readline'
import type { Readable } from 'node:stream'

/**
 * Standard input line by line, for `chat`. Ending early (/end, Ctrl+C) closes the reader and the
 * input: an open terminal would otherwise keep the process alive after the chat has ended.
 */
export function typedLines(input: Readable): AsyncIterable<string> {
  return {
    [Symbol.asyncIterator]() {
      const reader = createInterface({ input, crlfDelay: Infinity, terminal: false })
      const lines = reader[Symbol.asyncIterator]()
      return {
        next: () => lines.next(),
        async return() {
          reader.close()
          input.destroy()
          await lines.return?.()
          return { done: true, value: undefined }
        },
      }
    },
  }
}
