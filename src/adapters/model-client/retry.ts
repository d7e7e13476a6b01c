import { onAbort } from '../../base/shared/abort-listeners.ts'

/**
 * When and how long to wait before trying a model call again. The `openai` client's own retries are
 * off (they would hide tries from the count), so this is the only retry logic for convy-ci's models.
 */
export interface RetryPolicy {
  /** Tries per call, the first one included. */
  maxTries: number
  /** Pause after the first failed try; it doubles after each further one. */
  baseMs: number
  /** No pause is longer than this, whatever the server's Retry-After asks for. */
  maxPauseMs: number
}

export const DEFAULT_RETRY_BASE_MS = 1000
export const DEFAULT_MAX_RETRY_PAUSE_MS = 60_000

/**
 * The pause before the next try, after `failedTries` tries failed. The server's wish (Retry-After)
 * wins over the doubling, within the bound. Without one, the doubled pause is shortened by up to a
 * fifth at random, so many attempts throttled at the same moment do not all come back at once.
 */
export function pauseBeforeRetry(policy: RetryPolicy, failedTries: number, headers: Headers | undefined, random: () => number = Math.random): number {
  const asked = retryAfterMs(headers, Date.now())
  if (asked !== undefined) return clamp(asked, 0, policy.maxPauseMs)
  const doubled = policy.baseMs * 2 ** Math.max(0, failedTries - 1)
  return clamp(doubled * (1 - 0.2 * random()), 0, policy.maxPauseMs)
}

/**
 * What the server asked for: `retry-after-ms` (OpenAI's, in milliseconds), else `Retry-After` in
 * seconds or as an HTTP date. Undefined when neither is present or readable.
 */
export function retryAfterMs(headers: Headers | undefined, now: number): number | undefined {
  if (headers === undefined) return undefined
  const millis = Number.parseFloat(headers.get('retry-after-ms') ?? '')
  if (Number.isFinite(millis) && millis >= 0) return millis
  const value = headers.get('retry-after')?.trim()
  if (value === undefined || value === '') return undefined
  const seconds = Number(value)
  if (Number.isFinite(seconds)) return seconds >= 0 ? seconds * 1000 : undefined
  const date = Date.parse(value)
  return Number.isNaN(date) ? undefined : Math.max(0, date - now)
}

/** Waits `ms`, or rejects with the signal's reason as soon as it aborts. */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(abortReason(signal))
    // One run's signal is shared by every attempt playing at once: many calls pause on it together.
    const stopListening = onAbort(signal, () => {
      clearTimeout(timer)
      reject(abortReason(signal))
    })
    const timer = setTimeout(() => {
      stopListening()
      resolve()
    }, ms)
  })
}

/** The error an aborted call ends with: the reason given to `abort()`, as `fetch` does. */
export function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('The operation was aborted.', 'AbortError')
}

function clamp(value: number, low: number, high: number): number {
  return Math.min(high, Math.max(low, value))
}
