import { onAbort } from './abort-listeners.ts'

export interface Deadline {
  /** Aborts when the parent does, or when the time is up (with the reason given). */
  readonly signal: AbortSignal
  /** The time ran out, rather than the parent aborting. */
  readonly expired: boolean
  /** The work is over: the timer is cleared and the parent no longer listened to. */
  end(): void
}

/**
 * A signal for one request: its parent's abort or its own timeout, whichever comes first. The same as
 * `AbortSignal.any([parent, AbortSignal.timeout(ms)])`, without either: on Node 20 both make
 * transferable signals (a JSTransferable each) and `any` keeps a weak reference in the long-lived
 * parent until a collection; a run asks this for every agent and model request, thousands of times
 * (bench/runner.ts, docs/performance.md). One controller, one timer, one shared listener instead.
 */
export function withDeadline(parent: AbortSignal | undefined, ms: number, reason: () => unknown): Deadline {
  const controller = new AbortController()
  let expired = false
  let stopListening = () => {}
  const timer = setTimeout(() => {
    expired = true
    stopListening()
    controller.abort(reason())
  }, ms)
  if (parent?.aborted) controller.abort(parent.reason)
  else if (parent) stopListening = onAbort(parent, () => controller.abort(parent.reason))
  return {
    signal: controller.signal,
    get expired() {
      return expired
    },
    end() {
      clearTimeout(timer)
      stopListening()
    },
  }
}
