import { mkdir, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { uploadFolder } from '../../adapters/github/artifacts.ts'
import { summaryArtifactName } from '../../adapters/github/artifact-names.ts'
import { SUMMARY_FILE, summarizeRun, summaryJson } from '../../records/tally/run-summary.ts'
import type { RunTally } from '../../records/tally/run-tally.ts'
import { errorMessage } from '../../base/shared/errors.ts'
import type { ActionDeps } from './deps.ts'

/**
 * Uploads the run's summary (a few KB) beside its run folder: later pull requests read the default
 * branch's trend from these without downloading run folders. A failed upload is a warning.
 */
export async function uploadSummary(deps: ActionDeps, agent: string, tally: RunTally): Promise<void> {
  const { inputs, github, log } = deps
  const name = summaryArtifactName(inputs.artifactName, agent)
  const dir = join(deps.tempDir, 'summaries', agent)
  try {
    await rm(dir, { recursive: true, force: true })
    await mkdir(dir, { recursive: true })
    await writeFile(join(dir, SUMMARY_FILE), summaryJson(summarizeRun(tally)))
    await uploadFolder(deps.artifacts, name, dir, { retentionDays: inputs.retentionDays, replace: github.runAttempt > 1 })
    log.info(`${agent}: run summary uploaded as artifact ${name}`)
  } catch (error) {
    log.warning(`${agent}: the run summary was not uploaded, so this run will be missing from later trends: ${errorMessage(error)}`)
  }
}
