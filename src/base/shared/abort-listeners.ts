/**
 * Calls `listener` once when `signal` aborts; the returned function stops listening. However many
 * callers listen, a signal gets one real listener: Node's EventTarget checks the options, makes a
 * listener object and walks the listeners already there (to refuse a duplicate) on every add and
 * every remove, and a run's one signal has a listener for each step and each request in flight,
 * added and removed thousands of times a run (bench/runner.ts). The caller checks `signal.aborted`
 * first: a signal that has aborted already calls nothing.
 */
export function onAbort(signal: AbortSignal, listener: () => void): () => void {
  const listeners = listenersOf.get(signal) ?? listenTo(signal)
  listeners.add(listener)
  return () => void listeners.delete(listener)
}

const listenersOf = new WeakMap<AbortSignal, Set<() => void>>()

/** The signal's one real listener, calling every caller's. */
function listenTo(signal: AbortSignal): Set<() => void> {
  const listeners = new Set<() => void>()
  listenersOf.set(signal, listeners)
  signal.addEventListener('abort', () => callAll(signal, listeners), { once: true })
  return listeners
}

function callAll(signal: AbortSignal, listeners: Set<() => void>): void {
  listenersOf.delete(signal)
  let failed: { error: unknown } | undefined
  for (const listener of listeners) {
    try {
      listener()
    } catch (error) {
      // One listener's error does not keep the others from being called; it is thrown after them,
      // and the signal reports it as it reports any listener's.
      failed ??= { error }
    }
  }
  listeners.clear()
  if (failed) throw failed.error
}
