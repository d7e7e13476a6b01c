import { InputError, type ExitCode } from '../../../base/shared/errors.ts'
import { readCommandArgs } from '../args.ts'
import type { CliContext } from '../context.ts'
import { rejudgeRun } from '../../../app/pipeline/rejudge.ts'

/** `convy-ci rejudge <run> [--samples m]`: the judge asked again about a run's recorded dialogues (pipeline/rejudge.ts). */
export async function rejudgeCommand(ctx: CliContext, argv: readonly string[]): Promise<ExitCode> {
  const { values, positionals } = readCommandArgs('rejudge', argv)
  if (positionals.length !== 1) throw new InputError('convy-ci rejudge: give one run (its id, its 4-hex part or its folder)')
  const executed = await rejudgeRun(ctx, {
    run: positionals[0]!,
    samples: values.rejudgeSamples,
    scenarioGlobs: values.scenarios ?? [],
    parallel: values.parallelAgain,
    config: values.config,
    results: values.results,
  })
  return executed.exitCode
}
