import type { Readable } from 'node:stream'

/**
 * Standard input line by line, for `chat`. Ending early (/end, Ctrl+C) closes the reader and the
 * input: an open terminal would otherwise keep the process alive after the chat has ended. readline
 * is loaded here, by the one command that reads what is typed, not by every command's start-up.
 */
export async function* typedLines(input: Readable): AsyncGenerator<string> {
  const { createInterface } = await import('node:readline')
  const reader = createInterface({ input, crlfDelay: Infinity, terminal: false })
  try {
    yield* reader
  } finally {
    reader.close()
    input.destroy()
  }
}
