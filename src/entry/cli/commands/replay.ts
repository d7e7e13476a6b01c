import { InputError, type ExitCode } from '../../../base/shared/errors.ts'
import { parseCommandArgs, positiveInteger, positiveNumber } from '../args.ts'
import type { CliContext } from '../context.ts'
import { replayRun } from '../../../app/pipeline/replay.ts'

/** `convy-ci replay <run>`: the recorded user lines against the agent as it is now (pipeline/replay.ts). */
export async function replayCommand(ctx: CliContext, argv: readonly string[]): Promise<ExitCode> {
  const { values, positionals } = parseCommandArgs('replay', argv, {
    judge: { type: 'boolean' },
    'no-judge': { type: 'boolean' },
    parallel: { type: 'string' },
    'turn-timeout': { type: 'string' },
    verbose: { type: 'boolean' },
    config: { type: 'string' },
    results: { type: 'string' },
  })
  if (positionals.length !== 1) throw new InputError('convy-ci replay: give one run (its id, its 4-hex part or its folder)')
  if (values.judge && values['no-judge']) throw new InputError('convy-ci replay: --judge and --no-judge contradict each other; choose one')
  return replayRun(ctx, {
    run: positionals[0]!,
    judging: !values['no-judge'],
    parallel: values.parallel === undefined ? undefined : positiveInteger('--parallel', values.parallel, 1, 1000),
    turnTimeoutSeconds: values['turn-timeout'] === undefined ? undefined : positiveNumber('--turn-timeout', values['turn-timeout'], 1),
    verbose: values.verbose,
    config: values.config,
    results: values.results,
  })
}
