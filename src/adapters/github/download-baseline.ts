import type { RunManifest } from '../../records/journal/records.ts'
import { readManifest } from '../../records/journal/read-run.ts'
import { ConvyError } from '../../base/shared/errors.ts'
import { fetchArtifactZip } from './artifact-zip.ts'
import { runArtifactName } from './artifact-names.ts'
import { baselineCandidates } from './baseline.ts'
import type { Octokit } from './octokit.ts'
import { unzip, UNZIP_LIMITS } from './unzip.ts'

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

/** One candidate baseline, unzipped into its own folder. */
export interface DownloadedCandidate {
  manifest: RunManifest
  runId: number
  dir: string
}

/**
 * The run a pull request is compared with, through the REST API alone (no Actions runtime): the
 * newest successful run on the branch that uploaded the agent's run artifact, unzipped into `dir`.
 * No such run is a reason; an artifact that holds something else is an error.
 */
export async function downloadBaseline(octokit: Octokit, where: BaselineDownload, dir: string): Promise<DownloadedBaseline> {
  const downloads = downloadBaselines(octokit, where, () => dir)
  for await (const { manifest, runId } of downloads.candidates) return { manifest, runId }
  return { manifest: null, why: downloads.whyNone() }
}

/**
 * Every run that could be the baseline, newest first, each downloaded into the folder `dirFor` gives
 * it only when asked for: what `convy-ci baseline` and `convy-ci publish` walk back through for a
 * healthy one. `whyNone` says why there was none (or no more).
 */
export function downloadBaselines(octokit: Octokit, where: BaselineDownload, dirFor: (index: number) => string): { candidates: AsyncGenerator<DownloadedCandidate>; whyNone(): string } {
  const { owner, repo, workflow, branch, agent } = where
  const name = runArtifactName(where.prefix, agent)
  const seen = { runsSeen: 0, expired: 0 }
  async function* candidates(): AsyncGenerator<DownloadedCandidate> {
    let index = 0
    for await (const found of baselineCandidates(octokit, { owner, repo, workflow, branch, artifactName: name }, seen)) {
      const dir = dirFor(index++)
      await unzip(await fetchArtifactZip(octokit, { owner, repo, artifactId: found.artifactId, digest: found.digest, maxBytes: UNZIP_LIMITS.maxTotalBytes }), dir)
      const manifest = await readManifest(dir)
      if (!RUN_ID.test(manifest.id) || !manifest.id.startsWith(`${agent}/`)) throw new ConvyError(`artifact ${name} of workflow run ${found.runId} holds run "${manifest.id}", not a run of ${agent}`)
      yield { manifest, runId: found.runId, dir }
    }
  }
  return {
    candidates: candidates(),
    whyNone: () => `no successful run on ${branch} of ${owner}/${repo}${workflow === null ? '' : ` (workflow ${workflow})`} uploaded ${name}${seen.expired ? `; ${seen.expired} had one that expired` : ''}`,
  }
}
