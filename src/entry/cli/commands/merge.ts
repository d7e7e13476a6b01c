import { relative } from 'node:path'
import { findRun } from '../../../records/journal/read-run.ts'
import { REPORT_FILE } from '../../../records/journal/run-folder.ts'
import { ExitCode, InputError } from '../../../base/shared/errors.ts'
import { readCommandArgs } from '../args.ts'
import type { CliContext } from '../context.ts'
import { mergeShards } from '../../../app/pipeline/merge-shards.ts'
import { resultsDirOf } from '../../../app/pipeline/project.ts'

/** `convy-ci merge <run>...`: the run folders of a matrix job's shards become one run. */
export async function mergeCommand(ctx: CliContext, argv: readonly string[]): Promise<ExitCode> {
  const { values, positionals } = readCommandArgs('merge', argv)
  if (positionals.length === 0) throw new InputError('convy-ci merge: give the shards\' runs (ids, their 4-hex parts, or run folders)')
  const resultsDir = resultsDirOf(ctx, values)
  const shards = await Promise.all(positionals.map((reference) => findRun(resultsDir, reference)))
  const merged = await mergeShards(shards.map((s) => s.dir), resultsDir, ctx.writer(`convy-ci merge ${positionals.join(' ')}`), (warning) => ctx.stderr.write(`warning: ${warning}\n`))
  ctx.stdout.write(`merged ${shards.length} shard${shards.length === 1 ? '' : 's'} into run ${merged.id}\n  ${relative(ctx.cwd, `${merged.dir}/${REPORT_FILE}`)}\n`)
  return ExitCode.Ok
}

