import { InputError, type ExitCode } from '../../../base/shared/errors.ts'
import { list, parseCommandArgs, positiveInteger } from '../args.ts'
import type { CliContext } from '../context.ts'
import { REJUDGE_SAMPLES, rejudgeRun } from '../../../app/pipeline/rejudge.ts'

/** `convy-ci rejudge <run> [--samples m]`: the judge asked again about a run's recorded dialogues (pipeline/rejudge.ts). */
export async function rejudgeCommand(ctx: CliContext, argv: readonly string[]): Promise<ExitCode> {
  const { values, positionals } = parseCommandArgs('rejudge', argv, {
    samples: { type: 'string' },
    scenarios: { type: 'string', multiple: true },
    parallel: { type: 'string' },
    config: { type: 'string' },
    results: { type: 'string' },
  })
  if (positionals.length !== 1) throw new InputError('convy-ci rejudge: give one run (its id, its 4-hex part or its folder)')
  const executed = await rejudgeRun(ctx, {
    run: positionals[0]!,
    samples: positiveInteger('--samples', values.samples, REJUDGE_SAMPLES, 15),
    scenarioGlobs: list(values.scenarios),
    parallel: values.parallel === undefined ? undefined : positiveInteger('--parallel', values.parallel, 1, 1000),
    config: values.config,
    results: values.results,
  })
  return executed.exitCode
}
