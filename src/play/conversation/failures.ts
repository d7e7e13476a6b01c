import { ConvyError } from '../../base/shared/errors.ts'

/**
 * The agent failed a step (opening, a turn, closing): the attempt is an agent_error. `turnError` is
 * what its turn records, `message` what the attempt says; they differ only for a turn ("turn 2: …").
 */
export class AgentFailure extends ConvyError {
  readonly turnError: string
  /** How long the failed step took, for its turn. */
  readonly seconds: number
  constructor(message: string, turnError: string, seconds: number) {
    super(message)
    this.turnError = turnError
    this.seconds = seconds
  }
}

/** convy-ci's own simulated user or judge failed: the attempt has no verdict (never a fail). */
export class NoVerdict extends ConvyError {}

/** An interruption is never a failure of the attempt: it ends the run, and the attempt is dropped. */
export function throwIfInterrupted(signal: AbortSignal): void {
  if (signal.aborted) throw signal.reason instanceof Error ? signal.reason : new Error('interrupted')
}
