import { onAbort } from '../../base/shared/abort-listeners.ts'
import { ConvyError } from '../../base/shared/errors.ts'

export class StepTimeout extends ConvyError {}

/**
 * Runs one step of the agent (open, answer, close) with its own deadline. The step gets a signal that
 * aborts on the deadline or when `parent` aborts; if the step ignores the signal, the race still ends
 * it on time, so an agent that hangs cannot hang the run.
 */
export function withStepTimeout<T>(seconds: number, parent: AbortSignal, step: (signal: AbortSignal) => Promise<T> | T): Promise<T> {
  // One promise, one listener (on the parent) and one timer per step, settled by whichever comes
  // first: at thousands of steps a run, a race of three promises and a listener on the step's own
  // signal as well were a measurable part of the runner's CPU (bench/runner.ts).
  return new Promise<T>((resolve, reject) => {
    if (parent.aborted) return reject(asError(parent.reason))
    const controller = new AbortController()
    let settled = false
    const settle = () => {
      settled = true
      clearTimeout(timer)
      stopListening()
    }
    const stop = (reason: unknown) => {
      if (settled) return
      settle()
      controller.abort(reason)
      reject(asError(reason))
    }
    function abortFromParent(): void {
      stop(parent.reason)
    }
    const stopListening = onAbort(parent, abortFromParent)
    // The caller names the step ("turn 2: …", "opening the conversation failed: …"), so this does not.
    const timer = setTimeout(() => stop(new StepTimeout(`no answer within ${seconds} s (--turn-timeout)`)), seconds * 1000)
    let result: Promise<T> | T
    try {
      result = step(controller.signal)
    } catch (error) {
      settle()
      return reject(error)
    }
    Promise.resolve(result).then(
      (value) => {
        if (settled) return
        settle()
        resolve(value)
      },
      (error: unknown) => {
        if (settled) return
        settle()
        reject(error)
      },
    )
  })
}

function asError(reason: unknown): Error {
  return reason instanceof Error ? reason : new Error('aborted')
}
