import { setTimeout as sleep } from 'node:timers/promises'
import { InputError, rootCauseCode } from '../../base/shared/errors.ts'

/**
 * Polls a URL until the agent answers: any HTTP answer below 500 counts (a 404 or 401 still means a
 * server is listening; 5xx is a proxy or an app still starting). Service containers and background
 * steps take a while to start, and a run against an agent that is not up yet is all agent errors.
 */
export interface WaitOptions {
  url: string
  timeoutSeconds: number
  signal: AbortSignal
  /** Between tries; default one second. */
  intervalMs?: number
  /** Told once in a while what the wait is at. */
  onWaiting?: (message: string) => void
  fetch?: typeof fetch
}

/**
 * The shortest try: one cut off after a millisecond near the deadline would report a timeout of our
 * own making instead of what the server did (ECONNREFUSED, HTTP 502).
 */
const MIN_TRY_MS = 250

export async function waitFor(options: WaitOptions): Promise<{ seconds: number; status: number }> {
  const started = Date.now()
  const deadline = started + options.timeoutSeconds * 1000
  const doFetch = options.fetch ?? fetch
  let last = 'no answer yet'
  let lastTold = started
  for (;;) {
    options.signal.throwIfAborted()
    const remaining = deadline - Date.now()
    try {
      const response = await doFetch(options.url, { method: 'GET', redirect: 'manual', signal: AbortSignal.any([options.signal, AbortSignal.timeout(Math.max(MIN_TRY_MS, Math.min(5000, remaining)))]) })
      await response.body?.cancel()
      if (response.status < 500) return { seconds: (Date.now() - started) / 1000, status: response.status }
      last = `HTTP ${response.status}`
    } catch (error) {
      options.signal.throwIfAborted()
      last = rootCauseCode(error)
    }
    if (Date.now() >= deadline) {
      throw new InputError(`wait-for: ${options.url} did not answer within ${options.timeoutSeconds} s (last: ${last}); is the agent started, and on that port?`)
    }
    if (Date.now() - lastTold >= 10_000) {
      lastTold = Date.now()
      options.onWaiting?.(`still waiting for ${options.url} (${Math.round((Date.now() - started) / 1000)} s, last: ${last})`)
    }
    try {
      await sleep(Math.min(options.intervalMs ?? 1000, Math.max(0, deadline - Date.now())), undefined, { signal: options.signal })
    } catch {
      // Only an abort ends the pause early: stop with the abort's own reason.
      options.signal.throwIfAborted()
    }
  }
}

