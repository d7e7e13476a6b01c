import type { Dispatcher } from 'undici'
import { parseHeaders } from './undici.ts'
import type { SendWhole, WholeAnswer } from './whole.ts'

/** Past maxBodyBytes: the request fails and the rest of the answer is not read. */
export class ResponseTooLarge extends Error {
  constructor(what: string, limit: number) {
    super(`${what} answered more than ${mebibytes(limit)}; convy-ci stops reading an answer there (max_reply_kb sets what is kept)`)
    this.name = 'ResponseTooLarge'
  }
}

/**
 * A request read whole, handed to the dispatcher with a handler of its own. undici's `request` wraps
 * every answer in a Readable stream and an AsyncResource, and every body is then read back through
 * the stream: at a few thousand requests a run that was a fifth of the HTTP cost (bench/runner.ts).
 * Here the chunks are kept as they come and decoded once, as `body.text()` decodes them.
 */
export function dispatchWhole(dispatcher: Dispatcher, maxBodyBytes: number | undefined): SendWhole {
  // A client mostly sends to one URL (the chat completions endpoint, an agent's address): parsed once.
  let last: { url: string; origin: string; path: string } | undefined
  return (url, { method, headers, body, signal }) =>
    new Promise<WholeAnswer>((resolve, reject) => {
      if (last?.url !== url) {
        const target = new URL(url)
        last = { url, origin: target.origin, path: `${target.pathname}${target.search}` }
      }
      const handler = new WholeHandler(resolve, reject, signal, maxBodyBytes, `${method} ${url}`)
      dispatcher.dispatch({ origin: last.origin, path: last.path, method: method as Dispatcher.HttpMethod, headers: oneOfEachName(headers), body: body ?? null }, handler)
    })
}

/** undici's handler interface as its client calls it (the older form, which it runs without a wrapper). */
class WholeHandler implements Dispatcher.DispatchHandler {
  #chunks: Buffer[] = []
  #size = 0
  #status = 0
  #headers: WholeAnswer['headers'] = {}
  #abort: ((reason: Error) => void) | null = null
  #reason: Error | null = null
  #settled = false
  readonly #onAbort = () => this.#cancel(this.signal!.reason as Error)

  constructor(
    private readonly resolve: (answer: WholeAnswer) => void,
    private readonly reject: (error: unknown) => void,
    private readonly signal: AbortSignal | undefined,
    private readonly limit: number | undefined,
    private readonly what: string,
  ) {
    if (signal?.aborted) this.#cancel(signal.reason as Error)
    else signal?.addEventListener('abort', this.#onAbort, { once: true })
  }

  onConnect(abort: (reason: Error) => void): void {
    // A request cancelled while it waited for a connection is cut as soon as it gets one.
    if (this.#reason) abort(this.#reason)
    else this.#abort = abort
  }

  onHeaders(statusCode: number, rawHeaders: Buffer[]): boolean {
    // 1xx answers (100 Continue) come before the real one, as `request` skips them.
    if (statusCode < 200) return true
    this.#status = statusCode
    this.#headers = parseHeaders(rawHeaders)
    return true
  }

  onData(chunk: Buffer): boolean {
    this.#size += chunk.length
    // The same bound as the fetch path: a runaway answer never reaches memory whole.
    if (this.limit !== undefined && this.#size > this.limit) {
      this.#cancel(new ResponseTooLarge(this.what, this.limit))
      return false
    }
    this.#chunks.push(chunk)
    return true
  }

  onComplete(): void {
    if (this.#settle()) this.resolve({ status: this.#status, headers: this.#headers, text: decode(this.#chunks, this.#size) })
  }

  onError(error: Error): void {
    if (this.#settle()) this.reject(error)
  }

  /** Fails the request at once with `reason`, and has undici drop it (now, or when it connects). */
  #cancel(reason: Error): void {
    this.#reason = reason
    this.#abort?.(reason)
    if (this.#settle()) this.reject(reason)
  }

  #settle(): boolean {
    if (this.#settled) return false
    this.#settled = true
    this.signal?.removeEventListener('abort', this.#onAbort)
    return true
  }
}

/** UTF-8 without a leading byte-order mark, as undici's `body.text()` decodes. */
function decode(chunks: readonly Buffer[], size: number): string {
  const bytes = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks as Buffer[], size)
  const bom = bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf
  return bytes.toString('utf8', bom ? 3 : 0)
}

/** Names that differ only in case are one header, as with fetch's Headers: their values are joined. */
function oneOfEachName(headers: Readonly<Record<string, string>>): Record<string, string> {
  const flat: Record<string, string> = {}
  for (const [name, value] of Object.entries(headers)) {
    const key = name.toLowerCase()
    const earlier = flat[key]
    flat[key] = earlier === undefined ? value : `${earlier}, ${value}`
  }
  return flat
}

function mebibytes(bytes: number): string {
  return `${Math.round((bytes / 2 ** 20) * 10) / 10} MiB`
}
