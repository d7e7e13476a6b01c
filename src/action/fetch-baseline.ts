import { mkdir, rm } from 'node:fs/promises'
import { join } from 'node:path'
import type { RunRecord } from '../compare/comparison.ts'
import { loadRun } from '../compare/load-runs.ts'
import { apiFailure } from '../github/api-error.ts'
import { downloadArtifact } from '../github/artifacts.ts'
import { findBaseline, findRunArtifact, type RunArtifact } from '../github/baseline.ts'
import { runArtifactName } from './artifact-names.ts'
import type { ActionDeps } from './deps.ts'

/** Where the baseline comes from: a workflow run the user named, or the newest good one on a branch. */
export interface BaselineWhere {
  runId: number | null
  /** The workflow whose runs are searched; null searches all of the repository's. */
  workflow: number | null
  /** Null: the repository's default branch. */
  branch: string | null
  /** The run being compared, which is never its own baseline. */
  excludeRunId: number
}

export type FetchedBaseline = { record: RunRecord; dir: string } | { record: null; why: string }

/** Finds, downloads and reads an agent's baseline run; anything missing is a reason, not an error. */
export async function fetchBaseline(deps: ActionDeps, agent: string, where: BaselineWhere): Promise<FetchedBaseline> {
  const { octokit, token, github } = deps
  if (!octokit || !token) return { record: null, why: 'there is no github-token to look the baseline up with' }
  const { owner, repo } = github.repository
  const name = runArtifactName(deps.inputs.artifactName, agent)
  try {
    let artifact: RunArtifact
    if (where.runId !== null) {
      const found = await findRunArtifact(octokit, { owner, repo, runId: where.runId, name })
      if (found === null || found === 'expired') return { record: null, why: `workflow run ${where.runId} has no ${found ? 'unexpired ' : ''}artifact ${name}` }
      artifact = found
    } else {
      const branch = where.branch ?? github.defaultBranch ?? (await octokit.rest.repos.get({ owner, repo })).data.default_branch
      const search = await findBaseline(octokit, { owner, repo, workflow: where.workflow, branch, artifactName: name, excludeRunId: where.excludeRunId })
      if (!search.found) {
        const expired = search.expired ? ` (${search.expired} had one that expired)` : ''
        return { record: null, why: `no successful run of this workflow on ${branch} uploaded ${name}${expired}; the next push to ${branch} makes one` }
      }
      artifact = search.found
    }
    const dir = join(deps.tempDir, 'baseline', agent)
    await rm(dir, { recursive: true, force: true })
    await mkdir(dir, { recursive: true })
    await downloadArtifact(deps.artifacts, artifact.artifactId, dir, { token, owner, repo, runId: artifact.runId }, artifact.digest)
    const record = await loadRun(dir)
    if (record.manifest.agent.name !== agent) return { record: null, why: `artifact ${name} of workflow run ${artifact.runId} holds a run of ${record.manifest.agent.name}, not ${agent}` }
    deps.log.info(`${agent}: baseline ${record.manifest.id} from workflow run ${artifact.runId}`)
    return { record, dir }
  } catch (error) {
    deps.log.warning(`${agent}: the baseline could not be fetched, so nothing is compared: ${apiFailure(error, 'actions: read')}`)
    return { record: null, why: 'the baseline could not be fetched (see the warnings)' }
  }
}

/** The workflow a run belongs to, so the baseline comes from the same workflow; null (search all) if unknown. */
export async function workflowOfRun(deps: ActionDeps, runId: number): Promise<number | null> {
  if (!deps.octokit) return null
  const { owner, repo } = deps.github.repository
  try {
    return (await deps.octokit.rest.actions.getWorkflowRun({ owner, repo, run_id: runId })).data.workflow_id
  } catch (error) {
    deps.log.warning(`workflow run ${runId} could not be read, so the baseline is searched in every workflow: ${apiFailure(error, 'actions: read')}`)
    return null
  }
}
