import { listRuns } from '../../journal/read-run.ts'
import { writeIndex } from '../../report/index-page.ts'
import { writeRunReport } from '../../report/run-report.ts'
import { ExitCode, errorMessage } from '../../shared/errors.ts'
import { parseCommandArgs } from '../args.ts'
import type { CliContext } from '../context.ts'
import { resultsDirOf } from '../../pipeline/project.ts'

/** Rebuilds every run's report.html and results/index.html; a run that cannot be read is named, not fatal. */
export async function reportCommand(ctx: CliContext, argv: readonly string[]): Promise<ExitCode> {
  const { values, positionals } = parseCommandArgs('report', argv, { results: { type: 'string' }, config: { type: 'string' } })
  if (positionals.length) ctx.stderr.write(`convy-ci report takes no arguments; ignoring ${positionals.join(' ')}\n`)
  const resultsDir = resultsDirOf(ctx, values)
  const runs = await listRuns(resultsDir)
  let failed = 0
  for (const run of runs) {
    try {
      await writeRunReport(run.dir)
    } catch (error) {
      failed++
      ctx.stderr.write(`warning: ${run.id}: no report (${errorMessage(error)})\n`)
    }
  }
  const index = await writeIndex(resultsDir)
  ctx.stdout.write(`${runs.length - failed} report${runs.length - failed === 1 ? '' : 's'} written\n${index}\n`)
  return failed ? ExitCode.Failed : ExitCode.Ok
}
