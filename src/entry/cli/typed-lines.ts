import type { Interface } from 'node:readline'
import type { Readable } from 'node:stream'

/**
 * Standard input line by line, for `chat`. Ending early (/end, Ctrl+C) closes the reader and the
 * input first: an open terminal would otherwise keep the process alive after the chat has ended (and
 * readline's own iterator would wait for it). readline is loaded at the first line asked for, by the
 * one command that reads what is typed, not by every command's start-up.
 */
export function typedLines(input: Readable): AsyncIterable<string> {
  return {
    [Symbol.asyncIterator]() {
      let reader: Interface | undefined
      let lines: AsyncIterator<string> | undefined
      const open = async (): Promise<AsyncIterator<string>> => {
        if (lines === undefined) {
          const { createInterface } = await import('node:readline')
          reader = createInterface({ input, crlfDelay: Infinity, terminal: false })
          lines = reader[Symbol.asyncIterator]()
        }
        return lines
      }
      return {
        next: async () => (await open()).next(),
        async return() {
          reader?.close()
          input.destroy()
          await lines?.return?.()
          return { done: true, value: undefined }
        },
      }
    },
  }
}
