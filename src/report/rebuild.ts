import { listRuns } from '../journal/read-run.ts'
import { errorMessage } from '../shared/errors.ts'
import { writeIndex } from './index-page.ts'
import { writeRunReport } from './run-report.ts'

export interface RebuildResult {
  /** report.html paths written. */
  reports: string[]
  /** Runs whose report could not be written, with why; the others are still written. */
  failed: { runId: string; problem: string }[]
  /** results/index.html. */
  index: string
}

/**
 * `convy-ci report`: every run's report.html, then results/index.html. One run at a time, so memory
 * stays that of the largest run's summary; a broken run is reported, not fatal.
 */
export async function rebuildReports(resultsDir: string): Promise<RebuildResult> {
  const reports: string[] = []
  const failed: RebuildResult['failed'] = []
  for (const run of await listRuns(resultsDir)) {
    try {
      reports.push(await writeRunReport(run.dir))
    } catch (error) {
      failed.push({ runId: run.id, problem: errorMessage(error) })
    }
  }
  return { reports, failed, index: await writeIndex(resultsDir) }
}
