import { mkdir, rm } from 'node:fs/promises'
import { join } from 'node:path'
import { apiFailure } from '../../adapters/github/api-error.ts'
import { fetchHistory } from '../../adapters/github/history.ts'
import { HISTORY_FILE, writeHistory, type History } from '../../records/tally/trend.ts'
import { errorMessage } from '../../base/shared/errors.ts'
import type { ActionDeps } from './deps.ts'

/** Whose runs the trend is read from: the workflow and branch the baseline comes from. */
export interface HistoryWhere {
  /** The workflow whose runs are read; null reads every workflow's. */
  workflow: number | null
  /** Null: the repository's default branch. */
  branch: string | null
  /** The run being made or published, which is not its own history. */
  excludeRunId: number
}

/**
 * The default branch's last `history` runs of an agent, as their summaries, for the trend. Nothing
 * here fails the step: no token, no runs, a summary that cannot be read are each said in the log,
 * and the run is compared and published as without history.
 */
export async function readAgentHistory(deps: ActionDeps, agent: string, where: HistoryWhere): Promise<History | null> {
  const { inputs, octokit, github, log } = deps
  if (inputs.history === 0) return null
  if (!octokit) {
    log.info(`${agent}: no github-token, so no trend of the default branch`)
    return null
  }
  const { owner, repo } = github.repository
  const scratch = join(deps.tempDir, 'history', agent)
  try {
    const branch = where.branch ?? github.defaultBranch ?? (await octokit.rest.repos.get({ owner, repo })).data.default_branch
    await mkdir(scratch, { recursive: true })
    const fetched = await fetchHistory(octokit, { owner, repo, workflow: where.workflow, branch, prefix: inputs.artifactName, agent, runs: inputs.history, excludeRunId: where.excludeRunId }, scratch)
    for (const problem of fetched.problems) log.warning(`${agent}: trend: ${problem}`)
    const without = fetched.withoutSummary ? `; ${fetched.withoutSummary} had no summary artifact` : ''
    log.info(`${agent}: trend of ${branch} from ${fetched.entries.length} of its last ${fetched.runsSeen} successful run(s)${without}`)
    return { branch, entries: fetched.entries }
  } catch (error) {
    // A token without `actions: read` is a choice the baseline already lives with (from the Actions cache): said, not warned.
    const denied = typeof error === 'object' && error !== null && 'status' in error && (error.status === 403 || error.status === 404)
    const message = `${agent}: the default branch's history could not be read, so no trend is shown: ${apiFailure(error, 'actions: read')}`
    if (denied) log.info(message)
    else log.warning(message)
    return null
  } finally {
    await rm(scratch, { recursive: true, force: true })
  }
}

/** Keeps the history beside the agent's runs (results/<agent>/history.json), where its report reads it. */
export async function keepHistory(deps: ActionDeps, resultsDir: string, agent: string, history: History | null): Promise<void> {
  if (!history || history.entries.length === 0) return
  try {
    await writeHistory(join(resultsDir, agent, HISTORY_FILE), history, deps.context.now())
  } catch (error) {
    deps.log.warning(`${agent}: the trend was not kept for the report: ${errorMessage(error)}`)
  }
}

/**
 * Each agent's history, read before its run is played so report.html can show the trend, and kept
 * beside its runs; the time it took is said in the log.
 */
export async function readHistories(deps: ActionDeps, agents: readonly string[], resultsDir: string, where: HistoryWhere): Promise<Map<string, History>> {
  const histories = new Map<string, History>()
  if (deps.inputs.history === 0) return histories
  const started = deps.context.now().getTime()
  for (const agent of agents) {
    const history = await readAgentHistory(deps, agent, where)
    if (!history) continue
    histories.set(agent, history)
    await keepHistory(deps, resultsDir, agent, history)
  }
  deps.log.info(`trend: read in ${deps.context.now().getTime() - started} ms`)
  return histories
}
