import { relative } from 'node:path'
import { ExitCode, InputError } from '../../../base/shared/errors.ts'
import { judgeCheck } from '../../../app/pipeline/judge-check.ts'
import { readCommandArgs } from '../args.ts'
import type { CliContext } from '../context.ts'
import { judgeCheckText } from './judge-check-text.ts'

/**
 * `convy-ci judge-check <labels.jsonl> [--judge MODEL] [--samples m] [--json]`: how the judge's
 * decisions agree with a person's labels (pipeline/judge-check.ts); writes calibration.json.
 */
export async function judgeCheckCommand(ctx: CliContext, argv: readonly string[]): Promise<ExitCode> {
  const { values, given, positionals } = readCommandArgs('judge-check', argv)
  if (positionals.length !== 1) throw new InputError('convy-ci judge-check: give one labels file (labels.jsonl, downloaded from a report)')
  if (values.recorded && values.judgeModel !== undefined) throw new InputError('convy-ci judge-check: --recorded uses the runs\' decisions and --judge asks a model again; choose one')
  if (given.has('checkSamples') && values.judgeModel === undefined) throw new InputError('convy-ci judge-check: --samples needs --judge MODEL (the recorded decisions were sampled as their runs were)')
  const result = await judgeCheck(ctx, {
    labels: positionals[0]!,
    judge: values.judgeModel,
    samples: values.checkSamples,
    out: values.out,
    config: values.config,
    results: values.results,
  })
  if (values.json) {
    const { calibration: _calibration, ...figures } = result
    ctx.stdout.write(`${JSON.stringify(figures, null, 2)}\n`)
  } else {
    ctx.stdout.write(judgeCheckText(result, relative(ctx.cwd, result.path) || result.path))
  }
  return ExitCode.Ok
}
