import { ConvyError } from '../../base/shared/errors.ts'

// What every call through the model client takes and reports, whichever role makes it.

/** Counts what convy-ci's own model calls cost, per attempt and per role. */
export interface CallRecord {
  tries: number
  inputTokens: number
  outputTokens: number
  seconds: number
  /** Answered from the cache: no request was made, nothing was spent. */
  cached?: boolean
}

export interface ModelCallContext {
  signal: AbortSignal
  /** Called once per call, after it ends, successful or not. */
  record: (call: CallRecord) => void
  /**
   * The scenario as played and the attempt number, for the model cache: each attempt gets its own
   * entries, so repeats stay independent. Without it, calls are never cached.
   */
  cacheScope?: string
}

export type ModelFailure =
  | 'rate_limited'
  | 'server_error'
  | 'timeout'
  | 'connection'
  | 'rejected' // 4xx other than 429: bad key, unknown model, bad request
  | 'bad_answer' // not JSON, wrong number of claims, empty
  | 'refusal'

/** convy-ci's own model failed: the attempt gets no verdict, and is never counted as a fail. */
export class ModelError extends ConvyError {
  readonly failure: ModelFailure
  constructor(failure: ModelFailure, message: string, options?: ErrorOptions) {
    super(message, options)
    this.failure = failure
  }
}
