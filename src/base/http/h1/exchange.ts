import type { WholeAnswer } from '../whole.ts'
import type { ResponseParser } from './response-parser.ts'

/** A request on its way: the answer so far and how it ends. */
export interface Exchange {
  what: string
  head: string
  body: string | undefined
  signal: AbortSignal | undefined
  parser: ResponseParser
  resolve: (answer: WholeAnswer) => void
  reject: (error: unknown) => void
  bodyless: boolean
  /** Stops listening to `signal`. */
  stopListening: (() => void) | undefined
  /** The connection writing or reading it, for an abort to cut. */
  connection: { destroy(): void } | null
  /** Sent again once on a new connection if a reused one closes before any byte of the answer. */
  retried: boolean
  /** Answered, failed or aborted: an abort and an answer can cross, and only the first counts. */
  settled: boolean
  timer: ReturnType<typeof setTimeout> | undefined
}

/** Ends an exchange once: an abort and an answer can cross. */
export function settle(exchange: Exchange, end: () => void): void {
  if (exchange.settled) return
  exchange.settled = true
  exchange.stopListening?.()
  clearTimeout(exchange.timer)
  end()
}

