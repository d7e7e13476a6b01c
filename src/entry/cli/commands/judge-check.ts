import { relative } from 'node:path'
import { ExitCode, InputError } from '../../../base/shared/errors.ts'
import { judgeCheck } from '../../../app/pipeline/judge-check.ts'
import { parseCommandArgs, positiveInteger } from '../args.ts'
import type { CliContext } from '../context.ts'
import { judgeCheckText } from './judge-check-text.ts'

/**
 * `convy-ci judge-check <labels.jsonl> [--judge MODEL] [--samples m] [--json]`: how the judge's
 * decisions agree with a person's labels (pipeline/judge-check.ts); writes calibration.json.
 */
export async function judgeCheckCommand(ctx: CliContext, argv: readonly string[]): Promise<ExitCode> {
  const { values, positionals } = parseCommandArgs('judge-check', argv, {
    judge: { type: 'string' },
    samples: { type: 'string' },
    recorded: { type: 'boolean' },
    json: { type: 'boolean' },
    out: { type: 'string' },
    config: { type: 'string' },
    results: { type: 'string' },
  })
  if (positionals.length !== 1) throw new InputError('convy-ci judge-check: give one labels file (labels.jsonl, downloaded from a report)')
  if (values.recorded && values.judge !== undefined) throw new InputError('convy-ci judge-check: --recorded uses the runs\' decisions and --judge asks a model again; choose one')
  if (values.samples !== undefined && values.judge === undefined) throw new InputError('convy-ci judge-check: --samples needs --judge MODEL (the recorded decisions were sampled as their runs were)')
  const result = await judgeCheck(ctx, {
    labels: positionals[0]!,
    judge: values.judge,
    samples: positiveInteger('--samples', values.samples, 1, 15),
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
