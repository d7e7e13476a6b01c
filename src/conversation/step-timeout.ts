import { ConvyError } from '../shared/errors.ts'

export class StepTimeout extends ConvyError {}

/**
 * Runs one step of the agent (open, answer, close) with its own deadline. The step gets a signal that
 * aborts on the deadline or when `parent` aborts; if the step ignores the signal, the race still ends
 * it on time, so an agent that hangs cannot hang the run.
 */
export async function withStepTimeout<T>(seconds: number, parent: AbortSignal, step: (signal: AbortSignal) => Promise<T> | T): Promise<T> {
  const controller = new AbortController()
  let timer: ReturnType<typeof setTimeout> | undefined
  let stop!: (reason: unknown) => void
  // One listener (on the parent) and one timer per step: at thousands of steps a run, a listener on
  // the step's own signal as well was a measurable part of the runner's CPU (bench/runner.ts).
  const deadline = new Promise<never>((_resolve, reject) => {
    stop = (reason) => {
      controller.abort(reason)
      reject(reason instanceof Error ? reason : new Error('aborted'))
    }
  })
  const abortFromParent = () => stop(parent.reason)
  if (parent.aborted) abortFromParent()
  else {
    parent.addEventListener('abort', abortFromParent, { once: true })
    // The caller names the step ("turn 2: …", "opening the conversation failed: …"), so this does not.
    timer = setTimeout(() => stop(new StepTimeout(`no answer within ${seconds} s (--turn-timeout)`)), seconds * 1000)
  }
  try {
    return await Promise.race([Promise.resolve().then(() => step(controller.signal)), deadline])
  } finally {
    clearTimeout(timer)
    parent.removeEventListener('abort', abortFromParent)
  }
}
