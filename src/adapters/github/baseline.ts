import type { Octokit } from './octokit.ts'

/**
 * Finds the baseline of a comparison: the newest successful run on a branch that uploaded a given
 * artifact and whose artifact has not expired. Runs of pull requests are passed over even when their
 * branch has the same name (a fork's `main` is not this repository's `main`).
 */
export interface BaselineSearch {
  owner: string
  repo: string
  /** The workflow (its id or file name) whose runs are searched; null searches every workflow. */
  workflow: number | string | null
  branch: string
  artifactName: string
  /** Never this run (the current one, or the pull request's own run in publish mode). */
  excludeRunId?: number
  /** How many successful runs to look through before giving up. */
  maxRuns?: number
  /**
   * Only runs last updated (finished) by then, an ISO time: the adaptive shards of one workflow run,
   * which start at different times, all find the baseline that was there when it started.
   */
  finishedBefore?: string | null
}

export interface RunArtifact {
  runId: number
  artifactId: number
  name: string
  /** `sha256:<hex>` of the zip, when GitHub recorded one. */
  digest: string | null
  headSha: string | null
  createdAt: string | null
}

export interface BaselineSearchResult {
  found: RunArtifact | null
  /** Successful runs looked at. */
  runsSeen: number
  /** Runs whose artifact was there but had expired. */
  expired: number
}

const PAGE = 20

export async function findBaseline(octokit: Octokit, search: BaselineSearch): Promise<BaselineSearchResult> {
  const seen = { runsSeen: 0, expired: 0 }
  for await (const found of baselineCandidates(octokit, search, seen)) return { found, ...seen }
  return { found: null, ...seen }
}

/**
 * The runs that could be the baseline, newest first: each successful run on the branch with a live
 * artifact of the name, looked up as the caller asks for the next (the action walks past an unhealthy
 * baseline to an older one). `seen` counts the runs looked at and the expired artifacts as it goes.
 */
export async function* baselineCandidates(octokit: Octokit, search: BaselineSearch, seen: { runsSeen: number; expired: number } = { runsSeen: 0, expired: 0 }): AsyncGenerator<RunArtifact> {
  const { owner, repo } = search
  const maxRuns = search.maxRuns ?? 30
  let looked = 0
  for (let page = 1; looked < maxRuns; page++) {
    const query = { owner, repo, branch: search.branch, status: 'success' as const, per_page: PAGE, page, exclude_pull_requests: true }
    const { data } =
      search.workflow === null
        ? await octokit.rest.actions.listWorkflowRunsForRepo(query)
        : await octokit.rest.actions.listWorkflowRuns({ ...query, workflow_id: search.workflow })
    for (const run of data.workflow_runs) {
      if (run.id === search.excludeRunId) continue
      if (!isBranchRun(run, owner, repo)) continue
      if (search.finishedBefore && Date.parse(run.updated_at) > Date.parse(search.finishedBefore)) continue
      if (++looked > maxRuns) break
      seen.runsSeen = looked
      const artifact = await findRunArtifact(octokit, { owner, repo, runId: run.id, name: search.artifactName })
      if (artifact === 'expired') seen.expired++
      else if (artifact) yield artifact
    }
    if (data.workflow_runs.length < PAGE) break
  }
}

/** A run of the branch itself: not a pull request's, even one whose branch has the same name, nor a fork's. */
export function isBranchRun(run: { event: string; head_repository?: { full_name: string } | null }, owner: string, repo: string): boolean {
  return !run.event.startsWith('pull_request') && run.head_repository?.full_name === `${owner}/${repo}`
}

/** A run's artifact of this exact name; 'expired' when it is listed but can no longer be downloaded. */
export async function findRunArtifact(
  octokit: Octokit,
  where: { owner: string; repo: string; runId: number; name: string },
): Promise<RunArtifact | 'expired' | null> {
  const { data } = await octokit.rest.actions.listWorkflowRunArtifacts({ owner: where.owner, repo: where.repo, run_id: where.runId, name: where.name, per_page: 100 })
  const matches = data.artifacts.filter((a) => a.name === where.name)
  const live = matches.find((a) => !a.expired)
  if (!live) return matches.length ? 'expired' : null
  return {
    runId: where.runId,
    artifactId: live.id,
    name: live.name,
    digest: live.digest ?? null,
    headSha: live.workflow_run?.head_sha ?? null,
    createdAt: live.created_at ?? null,
  }
}
