import { FolderLocked } from '../../../records/journal/folder-lock.ts'
import { listRuns } from '../../../records/journal/read-run.ts'
import { lockRun } from '../../../records/journal/run-journal.ts'
import { writeIndex } from '../../../app/pipeline/write-index.ts'
import { writeRunReport } from '../../../app/pipeline/write-report.ts'
import { ExitCode, errorMessage } from '../../../base/shared/errors.ts'
import { readCommandArgs } from '../args.ts'
import type { CliContext } from '../context.ts'
import { resultsDirOf } from '../../../app/pipeline/project.ts'
import { calibrationNear } from '../../../app/pipeline/judge-calibration.ts'

/**
 * Rebuilds every run's report.html and results/index.html; a run that cannot be read is named, not
 * fatal. A run another process is writing is skipped with its writer named: that writer writes the
 * run's report when it ends.
 */
export async function reportCommand(ctx: CliContext, argv: readonly string[]): Promise<ExitCode> {
  const { values, positionals } = readCommandArgs('report', argv)
  if (positionals.length) ctx.stderr.write(`convy-ci report takes no arguments; ignoring ${positionals.join(' ')}\n`)
  const resultsDir = resultsDirOf(ctx, values)
  const { calibration } = await calibrationNear(ctx.cwd, values)
  const runs = await listRuns(resultsDir)
  const writer = ctx.writer('convy-ci report')
  let failed = 0
  let skipped = 0
  for (const run of runs) {
    let lock
    try {
      lock = await lockRun(run.dir, run.id, writer)
      await writeRunReport(run.dir, { calibration })
    } catch (error) {
      if (error instanceof FolderLocked) skipped++
      else failed++
      ctx.stderr.write(`warning: ${run.id}: ${error instanceof FolderLocked ? 'skipped' : 'no report'} (${errorMessage(error)})\n`)
    } finally {
      await lock?.release()
    }
  }
  const index = await writeIndex(resultsDir)
  const written = runs.length - failed - skipped
  ctx.stdout.write(`${written} report${written === 1 ? '' : 's'} written${skipped ? `, ${skipped} skipped (being written)` : ''}\n${index}\n`)
  return failed ? ExitCode.Failed : ExitCode.Ok
}
