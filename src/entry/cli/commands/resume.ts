import { ResumeRefused, type ExitCode } from '../../../base/shared/errors.ts'
import { readCommandArgs } from '../args.ts'
import type { CliContext } from '../context.ts'
import { commandName } from '../../../app/pipeline/invocation.ts'
import { resumeRun } from '../../../app/pipeline/resume.ts'

/** `convy-ci resume <run>`: plays what an interrupted run is missing (pipeline/resume.ts). */
export async function resumeCommand(ctx: CliContext, argv: readonly string[]): Promise<ExitCode> {
  const { values, positionals } = readCommandArgs('resume', argv)
  if (positionals.length !== 1) throw new ResumeRefused(`convy-ci resume: give one run id or its 4-hex part, e.g. \`${commandName(ctx.env)} resume a1b2\``)
  return resumeRun(ctx, { run: positionals[0]!, budgetUsd: values.budgetUsdAgain, verbose: values.verbose, config: values.config, results: values.results })
}
