import { ExitCode } from '../shared/errors.ts'
import type { Comparison } from './comparison.ts'

/** What fails a gate (`--fail-on`, the action's `fail-on`). */
export const FAIL_ON = ['worse', 'failing', 'never'] as const
export type FailOn = (typeof FAIL_ON)[number]

/** The exit code a comparison gives under a `fail-on` setting. */
export function gate(comparison: Comparison, failOn: FailOn): ExitCode {
  if (failOn === 'worse') return comparison.verdict === 'worse' ? ExitCode.Failed : ExitCode.Ok
  // failing: every attempt of the new run must pass, whatever the baseline did.
  if (failOn === 'failing') return comparison.tiles.passed.after === comparison.tiles.attempts.after ? ExitCode.Ok : ExitCode.Failed
  return ExitCode.Ok
}
