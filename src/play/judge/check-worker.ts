import { Worker } from 'node:worker_threads'
import { patternEngineSource } from '../../records/scenario/pattern-engine-source.ts'

/**
 * One `regex:` check over large answers, matched in a worker thread with a hard deadline: a match
 * cannot be paused, and on a 1 MiB answer it may take tens of seconds. Off the event loop, the run
 * goes on meanwhile (other attempts' timeouts, Ctrl+C), and past the deadline the worker is
 * terminated, whatever the match is doing.
 *
 * The worker is started from a string, not a file: the action's bundle is one file with no
 * node_modules and the CLI's is split into chunks, and a string needs neither. The pattern engine
 * travels with it as text (pattern-engine-source.ts).
 */
const WORKER_CODE = `
const { parentPort, workerData } = require('node:worker_threads')
const module_ = { exports: {} }
new Function('module', 'exports', workerData.engine)(module_, module_.exports)
const { RE2JS } = module_.exports
const compiled = RE2JS.compile(workerData.pattern, RE2JS.CASE_INSENSITIVE)
parentPort.postMessage(workerData.answers.findIndex((answer) => compiled.matcher(answer).find()))
`

let engineText: string | undefined

export type WorkerMatch = { found: number } | { tooLong: true }

/**
 * The index of the first answer the pattern matches (-1 for none), or `tooLong` when the deadline came
 * first. Rejects with the signal's reason when the run is interrupted, at once.
 */
export function matchInWorker(pattern: string, answers: readonly string[], deadlineMs: number, signal?: AbortSignal): Promise<WorkerMatch> {
  if (signal?.aborted) return Promise.reject(signal.reason as Error)
  engineText ??= patternEngineSource()
  const worker = new Worker(WORKER_CODE, { eval: true, workerData: { engine: engineText, pattern, answers } })
  return new Promise<WorkerMatch>((resolve, reject) => {
    let settled = false
    const finish = (settle: () => void) => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      signal?.removeEventListener('abort', onAbort)
      // Not awaited: terminating is asynchronous, and the answer is already known.
      void worker.terminate()
      settle()
    }
    const onAbort = () => finish(() => reject(signal!.reason as Error))
    const timer = setTimeout(() => finish(() => resolve({ tooLong: true })), deadlineMs)
    signal?.addEventListener('abort', onAbort, { once: true })
    worker.once('message', (found: number) => finish(() => resolve({ found })))
    worker.once('error', (error) => finish(() => reject(error)))
    worker.once('exit', (code) => finish(() => reject(new Error(`the check's worker stopped (exit ${code}) before it answered`))))
  })
}
