import type { RunManifest } from '../../records/journal/records.ts'
import { readManifest } from '../../records/journal/read-run.ts'
import { ConvyError } from '../../base/shared/errors.ts'
import { fetchArtifactZip } from './artifact-zip.ts'
import { runArtifactName } from './artifact-names.ts'
import { findBaseline } from './baseline.ts'
import type { Octokit } from './octokit.ts'
import { unzip } from './unzip.ts'

const RUN_ID = /^[A-Za-z0-9][A-Za-z0-9_.-]*\/\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d_[0-9a-f]{4}$/

export interface BaselineDownload {
  owner: string
  repo: string
  /** The workflow (its id or file name) whose runs are searched; null searches every workflow. */
  workflow: number | string | null
  branch: string
  /** The artifact-name prefix the action uploaded under (`convy` unless the workflow set one). */
  prefix: string
  agent: string
}

export type DownloadedBaseline = { manifest: RunManifest; runId: number } | { manifest: null; why: string }

/**
 * The run a pull request is compared with, through the REST API alone (no Actions runtime): the
 * newest successful run on the branch that uploaded the agent's run artifact, unzipped into `dir`.
 * What `convy-ci baseline` and `convy-ci publish` share. No such run is a reason; an artifact that
 * holds something else is an error.
 */
export async function downloadBaseline(octokit: Octokit, where: BaselineDownload, dir: string): Promise<DownloadedBaseline> {
  const { owner, repo, workflow, branch, agent } = where
  const name = runArtifactName(where.prefix, agent)
  const search = await findBaseline(octokit, { owner, repo, workflow, branch, artifactName: name })
  if (!search.found) {
    return { manifest: null, why: `no successful run on ${branch} of ${owner}/${repo}${workflow === null ? '' : ` (workflow ${workflow})`} uploaded ${name}${search.expired ? `; ${search.expired} had one that expired` : ''}` }
  }
  await unzip(await fetchArtifactZip(octokit, { owner, repo, artifactId: search.found.artifactId, digest: search.found.digest }), dir)
  const manifest = await readManifest(dir)
  if (!RUN_ID.test(manifest.id) || !manifest.id.startsWith(`${agent}/`)) throw new ConvyError(`artifact ${name} of workflow run ${search.found.runId} holds run "${manifest.id}", not a run of ${agent}`)
  return { manifest, runId: search.found.runId }
}
