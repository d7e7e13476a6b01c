import { onAbort } from '../../base/shared/abort-listeners.ts'
import { abortReason, sleep } from './retry.ts'

/**
 * Limits on one model, shared by every attempt of a run: requests and tokens per minute and calls in
 * flight. A 429 pauses the whole model, not just the call that got it: otherwise 50 parallel attempts
 * each retry on their own schedule and keep the gateway saturated.
 */
export interface RateLimits {
  requestsPerMinute?: number
  tokensPerMinute?: number
  concurrency?: number
}

const MINUTE_MS = 60_000

/** Time, injectable so tests can run a minute of limits in no time. */
export interface Clock {
  now(): number
  sleep(ms: number, signal: AbortSignal): Promise<void>
}

export const realClock: Clock = { now: () => Date.now(), sleep }

export class RateLimiter {
  readonly #limits: RateLimits
  readonly #clock: Clock
  /** Start times of requests in the last minute, oldest first. */
  readonly #requests: number[] = []
  /** Tokens used in the last minute, with the time they were counted. */
  readonly #tokens: { at: number; count: number }[] = []
  #inFlight = 0
  readonly #waiting: (() => void)[] = []
  #pausedUntil = 0

  constructor(limits: RateLimits, clock: Clock = realClock) {
    this.#limits = limits
    this.#clock = clock
  }

  /** Waits until a call may start, then holds a slot until `release`. */
  async acquire(signal: AbortSignal): Promise<() => void> {
    const concurrency = this.#limits.concurrency
    if (concurrency !== undefined && this.#inFlight >= concurrency) {
      await new Promise<void>((resolve, reject) => {
        if (signal.aborted) return reject(abortReason(signal))
        const stopListening = onAbort(signal, () => {
          const index = this.#waiting.indexOf(admit)
          if (index >= 0) this.#waiting.splice(index, 1)
          reject(abortReason(signal))
        })
        const admit = () => {
          stopListening()
          resolve()
        }
        this.#waiting.push(admit)
      })
    }
    this.#inFlight++
    try {
      for (let wait = this.#waitMs(); wait > 0; wait = this.#waitMs()) await this.#clock.sleep(wait, signal)
    } catch (error) {
      this.#release()
      throw error
    }
    this.#requests.push(this.#clock.now())
    let released = false
    return () => {
      if (released) return
      released = true
      this.#release()
    }
  }

  /** Counts a finished call's tokens against tokens per minute. */
  recordTokens(count: number): void {
    if (count > 0) this.#tokens.push({ at: this.#clock.now(), count })
  }

  /** A 429 told us to wait: every call to this model waits with it. */
  pause(ms: number): void {
    this.#pausedUntil = Math.max(this.#pausedUntil, this.#clock.now() + ms)
  }

  #release(): void {
    this.#inFlight--
    this.#waiting.shift()?.()
  }

  #waitMs(): number {
    const now = this.#clock.now()
    const windowStart = now - MINUTE_MS
    while (this.#requests.length && this.#requests[0]! <= windowStart) this.#requests.shift()
    while (this.#tokens.length && this.#tokens[0]!.at <= windowStart) this.#tokens.shift()
    let wait = Math.max(0, this.#pausedUntil - now)
    const rpm = this.#limits.requestsPerMinute
    if (rpm !== undefined && this.#requests.length >= rpm) wait = Math.max(wait, this.#requests[this.#requests.length - rpm]! + MINUTE_MS - now)
    const tpm = this.#limits.tokensPerMinute
    if (tpm !== undefined) {
      let used = this.#tokens.reduce((sum, t) => sum + t.count, 0)
      // Wait until enough of the minute's tokens have aged out to be under the limit again.
      for (const entry of this.#tokens) {
        if (used < tpm) break
        used -= entry.count
        wait = Math.max(wait, entry.at + MINUTE_MS - now)
      }
    }
    return wait
  }
}
