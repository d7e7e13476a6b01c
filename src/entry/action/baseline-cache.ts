import { cp, mkdir, rm } from 'node:fs/promises'
import { basename, dirname, join, resolve } from 'node:path'
import type { RunTally } from '../../records/tally/run-tally.ts'
import { readTally } from '../../records/tally/read-tally.ts'
import { readManifest } from '../../records/journal/read-run.ts'
import { REPORT_FILE } from '../../records/journal/run-folder.ts'
import { errorMessage } from '../../base/shared/errors.ts'
import { baselineCacheKeys } from './cache-keys.ts'
import type { ActionDeps } from './deps.ts'

/**
 * The baseline through the Actions cache. Runs on the baseline branch save their run folder there as
 * well as uploading it; a pull request restores the newest one when the artifact cannot be read (no
 * `actions: read`, expired, deleted): a pull request may read its base and default branches' cache
 * entries without any permission.
 *
 * The cache hashes the folder's path into each entry's version, so the folder is staged at one fixed
 * place in the project, `.convy/baseline/<agent>/`, on saving and on restoring alike.
 */
function stagingDir(deps: ActionDeps, agent: string): string {
  return join(dirname(resolve(deps.context.cwd, deps.inputs.config)), '.convy', 'baseline', agent)
}

/** The branch whose runs are baselines, when this run is one of them and may save; else null. */
export function baselineBranchToSave(deps: ActionDeps): string | null {
  const { github, inputs } = deps
  const baselineBranch = inputs.baselineBranch ?? github.defaultBranch
  if (github.pullRequest || github.triggeringRun || inputs.shard || inputs.baseline.kind === 'none') return null
  if (github.branch === null || github.branch !== baselineBranch) return null
  return baselineBranch
}

/** Saves a finished run of the baseline branch as the agent's newest cached baseline. */
export async function saveBaselineToCache(deps: ActionDeps, agent: string, runDir: string): Promise<void> {
  const { github, log, cache } = deps
  const branch = baselineBranchToSave(deps)
  if (branch === null || !cache.available()) return
  if (github.cacheReadOnlyReason) {
    log.info(`${agent}: the run is not saved as a cached baseline: ${github.cacheReadOnlyReason}`)
    return
  }
  const keys = baselineCacheKeys(deps.inputs.artifactName, agent, branch, github)
  const staged = stagingDir(deps, agent)
  try {
    // Only a whole run is a baseline, whatever fail-on lets pass.
    if ((await readManifest(runDir)).state !== 'finished') return
    await rm(staged, { recursive: true, force: true })
    await mkdir(dirname(staged), { recursive: true })
    // The report is for people; a comparison needs only the records.
    await cp(runDir, staged, { recursive: true, filter: (source) => basename(source) !== REPORT_FILE })
    if (await cache.save([staged], keys.key)) log.info(`${agent}: run saved to the Actions cache as ${keys.key}, a baseline for pull requests that cannot read artifacts`)
    else log.warning(`${agent}: the run was not saved to the Actions cache as ${keys.key} (see above); pull requests still find it as an artifact`)
  } catch (error) {
    log.warning(`${agent}: the run was not saved to the Actions cache: ${errorMessage(error)}`)
  } finally {
    await rm(staged, { recursive: true, force: true })
  }
}

export type CachedBaseline = { tally: RunTally; key: string; dir: string } | { tally: null; why: string }

/** The newest baseline run of an agent saved on a branch, restored from the Actions cache. */
export async function restoreBaselineFromCache(deps: ActionDeps, agent: string, branch: string): Promise<CachedBaseline> {
  const { cache } = deps
  if (!cache.available()) return { tally: null, why: 'there is no Actions cache service here' }
  const keys = baselineCacheKeys(deps.inputs.artifactName, agent, branch, deps.github)
  const staged = stagingDir(deps, agent)
  try {
    // Whatever is there (a checkout's leftovers, an earlier step) must not pass for the restored run.
    await rm(staged, { recursive: true, force: true })
    const key = await cache.restore([staged], keys.key, keys.restoreKeys)
    if (!key) return { tally: null, why: `the Actions cache has no run of ${agent} saved on ${branch} either` }
    const kept = join(deps.tempDir, 'cached-baseline', agent)
    await rm(kept, { recursive: true, force: true })
    await cp(staged, kept, { recursive: true })
    const tally = await readTally(kept, { mask: deps.mask })
    if (tally.manifest.agent.name !== agent) return { tally: null, why: `the cached run ${key} is a run of ${tally.manifest.agent.name}, not ${agent}` }
    return { tally, key, dir: kept }
  } catch (error) {
    return { tally: null, why: `the Actions cache could not be read (${errorMessage(error)})` }
  } finally {
    await rm(staged, { recursive: true, force: true })
  }
}
