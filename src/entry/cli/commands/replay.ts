import { InputError, type ExitCode } from '../../../base/shared/errors.ts'
import { readCommandArgs } from '../args.ts'
import type { CliContext } from '../context.ts'
import { replayRun } from '../../../app/pipeline/replay.ts'

/** `convy-ci replay <run>`: the recorded user lines against the agent as it is now (pipeline/replay.ts). */
export async function replayCommand(ctx: CliContext, argv: readonly string[]): Promise<ExitCode> {
  const { values, positionals } = readCommandArgs('replay', argv)
  if (positionals.length !== 1) throw new InputError('convy-ci replay: give one run (its id, its 4-hex part or its folder)')
  return replayRun(ctx, {
    run: positionals[0]!,
    judging: values.replayJudge,
    parallel: values.parallelAgain,
    turnTimeoutSeconds: values.turnTimeoutAgain,
    verbose: values.verbose,
    config: values.config,
    results: values.results,
  })
}
