import { copyFile, mkdir } from 'node:fs/promises'
import { join } from 'node:path'
import { REPORT_FILE } from '../../records/journal/run-folder.ts'
import type { Shard } from '../../records/journal/records.ts'
import { uploadFolder, uploadSingleFile } from '../../adapters/github/artifacts.ts'
import { artifactUrl } from '../../adapters/github/event.ts'
import { errorMessage } from '../../base/shared/errors.ts'
import { reportFileName, runArtifactName } from '../../adapters/github/artifact-names.ts'
import type { ActionDeps } from './deps.ts'

/**
 * Uploads a run: the folder, zipped (later pull requests download it as their baseline, and a
 * merge job combines shards from it), and report.html alone, unzipped, so its link opens the report
 * in the browser. A failed upload is a warning: the run and its verdict stand without it.
 */
export async function uploadRun(deps: ActionDeps, agent: string, dir: string, shard: Shard | null): Promise<{ reportUrl: string | null }> {
  const { inputs, github, log } = deps
  const options = { retentionDays: inputs.retentionDays, replace: github.runAttempt > 1 }
  const name = runArtifactName(inputs.artifactName, agent, shard)
  try {
    await uploadFolder(deps.artifacts, name, dir, options)
    log.info(`${agent}: run folder uploaded as artifact ${name}`)
  } catch (error) {
    log.warning(`${agent}: the run folder was not uploaded, so it cannot be a later baseline${shard ? ' or be merged' : ''}: ${errorMessage(error)}`)
  }
  // A shard's report is partial; the merge job uploads the whole run's.
  if (shard) return { reportUrl: null }
  try {
    const copyDir = join(deps.tempDir, 'reports')
    await mkdir(copyDir, { recursive: true })
    const file = join(copyDir, reportFileName(inputs.artifactName, agent))
    await copyFile(join(dir, REPORT_FILE), file)
    const id = await uploadSingleFile(deps.artifacts, file, options)
    const reportUrl = artifactUrl(github, github.runId, id)
    log.info(`${agent}: report ${reportUrl}`)
    return { reportUrl }
  } catch (error) {
    log.warning(`${agent}: the report was not uploaded, so the comment links no report: ${errorMessage(error)}`)
    return { reportUrl: null }
  }
}
