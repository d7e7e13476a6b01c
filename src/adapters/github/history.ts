import { mkdtemp, readFile, rm, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { parseRunSummary, SUMMARY_FILE, SUMMARY_MAX_BYTES } from '../../records/tally/run-summary.ts'
import type { HistoryEntry } from '../../records/tally/trend.ts'
import { errorMessage } from '../../base/shared/errors.ts'
import { fetchArtifactZip } from './artifact-zip.ts'
import { summaryArtifactName } from './artifact-names.ts'
import { isBranchRun } from './baseline.ts'
import type { Octokit } from './octokit.ts'
import { unzip, type UnzipLimits } from './unzip.ts'
import type { BaselineDownload } from './download-baseline.ts'

/**
 * The default branch's last runs, as their summary artifacts (a few KB each): what the trend is drawn
 * from. Only small artifacts are downloaded, each unzipped with limits fit for one small file, and
 * anything that is missing, too large or not a summary is left out with a reason: history is context,
 * never a reason to fail.
 */
export interface HistorySearch extends BaselineDownload {
  /** The newest successful runs of the branch to read. */
  runs: number
  /** Never this run (the current one). */
  excludeRunId?: number
}

export interface FetchedHistory {
  /** Newest first. */
  entries: HistoryEntry[]
  /** Successful runs of the branch looked at. */
  runsSeen: number
  /** Of those, runs without a summary artifact (older than this feature, or their step did not run). */
  withoutSummary: number
  /** A sentence per summary left out, for the log. */
  problems: string[]
}

/** A summary artifact is one small file; its zip is refused beyond this, before it is downloaded. */
const ZIP_MAX_BYTES = SUMMARY_MAX_BYTES + 4096
const SUMMARY_UNZIP_LIMITS: UnzipLimits = { maxEntries: 4, maxTotalBytes: SUMMARY_MAX_BYTES * 2, maxRatio: 200 }
/** Runs read at once: a few requests in flight, not one per run. */
const AT_ONCE = 4

export async function fetchHistory(octokit: Octokit, search: HistorySearch, scratch: string): Promise<FetchedHistory> {
  const runs = await branchRuns(octokit, search)
  const name = summaryArtifactName(search.prefix, search.agent)
  const listed = runs.length ? await recentSummaries(octokit, search, name) : { byRun: new Map<number, SummaryArtifact>(), complete: true }
  const results: ({ entry: HistoryEntry } | { problem: string } | null)[] = new Array(runs.length).fill(null)
  let next = 0
  const worker = async () => {
    while (next < runs.length) {
      const index = next++
      const runId = runs[index]!
      // A run the repository's listing did not reach is looked up on its own.
      const artifact = listed.byRun.get(runId) ?? (listed.complete ? null : await runSummaryArtifact(octokit, search, runId, name))
      results[index] = artifact ? await readRunSummary(octokit, search, runId, artifact, name, scratch) : null
    }
  }
  await Promise.all(Array.from({ length: Math.min(AT_ONCE, runs.length) }, worker))
  const fetched: FetchedHistory = { entries: [], runsSeen: runs.length, withoutSummary: 0, problems: [] }
  for (const result of results) {
    if (result === null) fetched.withoutSummary++
    else if ('problem' in result) fetched.problems.push(result.problem)
    else if (result.entry.summary.agent !== search.agent) fetched.problems.push(`workflow run ${result.entry.workflowRun}: its ${name} is a summary of ${result.entry.summary.agent}, left out`)
    else fetched.entries.push(result.entry)
  }
  return fetched
}

/** The newest successful runs of the branch itself, newest first. */
async function branchRuns(octokit: Octokit, search: HistorySearch): Promise<number[]> {
  const { owner, repo } = search
  const found: number[] = []
  const perPage = Math.min(100, Math.max(10, search.runs + 5))
  for (let page = 1; found.length < search.runs && page <= 5; page++) {
    const query = { owner, repo, branch: search.branch, status: 'success' as const, per_page: perPage, page, exclude_pull_requests: true }
    const { data } =
      search.workflow === null ? await octokit.rest.actions.listWorkflowRunsForRepo(query) : await octokit.rest.actions.listWorkflowRuns({ ...query, workflow_id: search.workflow })
    for (const run of data.workflow_runs) {
      if (run.id === search.excludeRunId || !isBranchRun(run, owner, repo)) continue
      if (found.length < search.runs) found.push(run.id)
    }
    if (data.workflow_runs.length < perPage) break
  }
  return found
}

interface SummaryArtifact {
  id: number
  size_in_bytes: number
  digest?: string | null
}

/**
 * The repository's newest summary artifacts of this name, by workflow run, in one or two requests
 * rather than one per run; `complete` when the listing reached its end (a run missing from it then
 * has none). Pull requests' runs upload summaries too, so on a busy repository it may not reach back.
 */
async function recentSummaries(octokit: Octokit, search: HistorySearch, name: string): Promise<{ byRun: Map<number, SummaryArtifact>; complete: boolean }> {
  const byRun = new Map<number, SummaryArtifact>()
  for (let page = 1; page <= 2; page++) {
    const { data } = await octokit.rest.actions.listArtifactsForRepo({ owner: search.owner, repo: search.repo, name, per_page: 100, page })
    for (const artifact of data.artifacts) {
      const runId = artifact.workflow_run?.id
      if (artifact.name === name && !artifact.expired && runId !== undefined && !byRun.has(runId)) byRun.set(runId, artifact)
    }
    if (data.artifacts.length < 100) return { byRun, complete: true }
  }
  return { byRun, complete: false }
}

async function runSummaryArtifact(octokit: Octokit, search: HistorySearch, runId: number, name: string): Promise<SummaryArtifact | null> {
  const { data } = await octokit.rest.actions.listWorkflowRunArtifacts({ owner: search.owner, repo: search.repo, run_id: runId, name, per_page: 10 })
  return data.artifacts.find((a) => a.name === name && !a.expired) ?? null
}

async function readRunSummary(octokit: Octokit, search: HistorySearch, runId: number, artifact: SummaryArtifact, name: string, scratch: string): Promise<{ entry: HistoryEntry } | { problem: string }> {
  const { owner, repo } = search
  const left = (why: string) => ({ problem: `workflow run ${runId}: its ${name} was left out: ${why}` })
  if (artifact.size_in_bytes > ZIP_MAX_BYTES) return left(`it is ${artifact.size_in_bytes} bytes; a summary is at most ${ZIP_MAX_BYTES}`)
  const dir = await mkdtemp(join(scratch, 'summary-'))
  try {
    const zip = await fetchArtifactZip(octokit, { owner, repo, artifactId: artifact.id, digest: artifact.digest ?? null, maxBytes: ZIP_MAX_BYTES })
    await unzip(zip, dir, SUMMARY_UNZIP_LIMITS)
    const file = join(dir, SUMMARY_FILE)
    const size = await stat(file).then((s) => (s.isFile() ? s.size : -1), () => -1)
    if (size < 0) return left(`it holds no ${SUMMARY_FILE}`)
    if (size > SUMMARY_MAX_BYTES) return left(`its ${SUMMARY_FILE} is ${size} bytes; a summary is at most ${SUMMARY_MAX_BYTES}`)
    const parsed = parseRunSummary(await readFile(file))
    return 'problem' in parsed ? left(parsed.problem) : { entry: { workflowRun: runId, summary: parsed.summary } }
  } catch (error) {
    return left(errorMessage(error))
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}
