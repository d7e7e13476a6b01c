import { ConvyError } from '../shared/errors.ts'

export class StepTimeout extends ConvyError {}

/**
 * Runs one step of the agent (open, answer, close) with its own deadline. The step gets a signal that
 * aborts on the deadline or when `parent` aborts; if the step ignores the signal, the race still ends
 * it on time, so an agent that hangs cannot hang the run.
 */
export async function withStepTimeout<T>(seconds: number, parent: AbortSignal, step: (signal: AbortSignal) => Promise<T> | T): Promise<T> {
  const controller = new AbortController()
  const abortFromParent = () => controller.abort(parent.reason)
  if (parent.aborted) abortFromParent()
  else parent.addEventListener('abort', abortFromParent, { once: true })
  let timer: ReturnType<typeof setTimeout> | undefined
  const deadline = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => {
      // The caller names the step ("turn 2: …", "opening the conversation failed: …"), so this does not.
      const error = new StepTimeout(`no answer within ${seconds} s (--turn-timeout)`)
      controller.abort(error)
      reject(error)
    }, seconds * 1000)
    controller.signal.addEventListener('abort', () => reject(controller.signal.reason instanceof Error ? controller.signal.reason : new Error('aborted')), { once: true })
  })
  try {
    return await Promise.race([Promise.resolve().then(() => step(controller.signal)), deadline])
  } finally {
    clearTimeout(timer)
    parent.removeEventListener('abort', abortFromParent)
  }
}
