import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { findRun, listRuns } from '../../records/journal/read-run.ts'
import type { RunLocation } from '../../records/journal/run-folder.ts'
import { apiFailure } from '../../adapters/github/api-error.ts'
import { downloadBaselines } from '../../adapters/github/download-baseline.ts'
import { walkBack } from '../publish/walk-back.ts'
import { gatherEvidence, type Evidence } from './reconsider.ts'
import type { Repository } from '../../adapters/github/event.ts'
import { createOctokit, type Octokit } from '../../adapters/github/octokit.ts'
import { fetchHistory } from '../../adapters/github/history.ts'
import type { History } from '../../records/tally/trend.ts'
import type { PublishLog, PublishSettings } from '../publish/deps.ts'
import type { BaselineFound } from '../../verdict/baseline-health.ts'
import { publishRun, type Published } from '../publish/publish-run.ts'
import { ConvyError } from '../../base/shared/errors.ts'
import { noMask, type Mask } from '../../base/shared/secrets.ts'
import { readTally } from '../../records/tally/read-tally.ts'
import type { PipelineContext } from './context.ts'
import { resultsDirOf } from './project.ts'

export interface PublishRequest {
  /** The run: an id, its 4-hex part, a run folder, or an agent's name for its newest run. */
  run: string
  token: string
  repository: Repository
  apiUrl: string
  serverUrl: string
  pullRequest: number
  headSha: string
  /** The branch whose latest run is the baseline; null asks the repository for its default branch. */
  branch: string | null
  /** The workflow (id or file name) whose runs are searched; null searches every workflow. */
  workflow: number | string | null
  /** The artifact-name prefix the action uploaded under. */
  artifactName: string
  /** The branch's last runs whose summaries make the trend lines of the comment, as the action's `history`; default 10, 0: none. */
  history?: number
  reportUrl: string | null
  settings: PublishSettings
  config?: string | undefined
  results?: string | undefined
  /** The token and the project's secrets: masked in the comment, the check and the log lines. */
  mask?: Mask
  /** The base branch's judge (--base-config), which the gate judges with (settle-judge.ts); absent: none known. */
  baseJudge?: Evidence['baseJudge']
}

/**
 * `convy-ci publish`: a local run compared with the default branch's latest run (found through the
 * REST API, as `convy-ci baseline` finds it) and posted on the pull request with the action's own
 * code (publish/): the same sticky comment, check and markdown, and the same gate.
 */
/** How many of the branch's newest runs are looked through for the baseline an adaptive run recorded, as the action's merge job does. */
const RECORDED_BASELINE_SEARCH = 10

/** Of the candidates, newest first, only the run `id`, looked for among the first `limit`. */
async function* onlyRun<C extends { manifest: { id: string } }>(candidates: AsyncIterable<C>, id: string, limit: number): AsyncGenerator<C> {
  let looked = 0
  for await (const candidate of candidates) {
    if (candidate.manifest.id === id) {
      yield candidate
      return
    }
    if (++looked >= limit) return
  }
}

export async function publishLocalRun(ctx: PipelineContext, request: PublishRequest): Promise<Published & { agent: string; runId: string }> {
  const resultsDir = resultsDirOf(ctx, request)
  const location = await runToPublish(resultsDir, request.run)
  const mask = request.mask ?? noMask
  // Masked as they are read, this run and its baselines, before anything quotes, escapes or cuts them.
  const tally = await readTally(location.dir, { mask })
  const agent = tally.manifest.agent.name
  const log = terminalLog(ctx, mask)
  const octokit = createOctokit(request.token, request.apiUrl, mask)
  const { owner, repo } = request.repository

  const download = await mkdtemp(join(tmpdir(), 'convy-publish-'))
  try {
    let baseline: BaselineFound
    try {
      const branch = request.branch ?? (await octokit.rest.repos.get({ owner, repo })).data.default_branch
      const downloads = downloadBaselines(octokit, { owner, repo, workflow: request.workflow, branch, prefix: request.artifactName, agent }, (index) => join(download, String(index)))
      // An adaptive run decided its rounds against one baseline (run.json): it is compared with that
      // run, not with a newer one its rounds never saw.
      const recorded = tally.manifest.settings.adaptive?.baseline ?? null
      const candidates = recorded === null ? downloads.candidates : onlyRun(downloads.candidates, recorded, RECORDED_BASELINE_SEARCH)
      const walked = await walkBack(candidates, (candidate) => readTally(candidate.dir, { mask }), tally)
      if (walked) {
        const { runId, dir } = walked.candidate
        baseline = { tally: walked.tally, source: { kind: 'artifact', runId }, health: walked.health, passedOver: walked.passedOver, dir }
        if (walked.passedOver.length) log.info(`${agent}: walked back past ${walked.passedOver.length} newer run(s) of ${branch} with too many errors: ${walked.passedOver.join('; ')}`)
        log.info(`${agent}: baseline ${walked.tally.manifest.id} from workflow run ${runId} on ${branch}`)
      } else if (recorded !== null) {
        baseline = { tally: null, why: `the baseline this adaptive run's rounds were decided against, ${recorded}, is not among the newest ${RECORDED_BASELINE_SEARCH} runs on ${branch} that uploaded one` }
      } else {
        baseline = { tally: null, why: `${downloads.whyNone()}; the next push to ${branch} makes one` }
      }
    } catch (error) {
      if (error instanceof ConvyError) throw error
      // As in the action: a baseline that cannot be had is said, and the run is still published alone.
      log.warning(`${agent}: the baseline artifact could not be fetched: ${apiFailure(error, 'actions: read')}`)
      baseline = { tally: null, why: 'the baseline artifact could not be fetched (see the warnings)' }
    }
    const deps = { octokit, repository: request.repository, serverUrl: request.serverUrl, settings: request.settings, log, now: () => ctx.now(), mask }
    const target = { number: request.pullRequest, headSha: request.headSha, readOnlyReason: null }
    const evidence = { after: tally, afterDir: location.dir, rejudge: null, config: request.config, projectSettingsOnly: true, baseJudge: request.baseJudge ?? null, log: (message: string) => log.info(`${agent}: ${message}`) }
    const history = await branchHistory(octokit, request, agent, download, log)
    const published = await publishRun(deps, { agent, tally, reportUrl: request.reportUrl, history }, baseline, target, (before, comparison) => gatherEvidence(ctx, evidence, before, comparison))
    return { ...published, agent, runId: tally.manifest.id }
  } finally {
    await rm(download, { recursive: true, force: true })
  }
}

/** The default branch's last runs, as the action reads them for its comment; a failure is a warning. */
async function branchHistory(octokit: Octokit, request: PublishRequest, agent: string, scratch: string, log: { info(m: string): void; warning(m: string): void }): Promise<History | null> {
  const runs = request.history ?? 10
  if (runs === 0) return null
  const { owner, repo } = request.repository
  try {
    const branch = request.branch ?? (await octokit.rest.repos.get({ owner, repo })).data.default_branch
    const fetched = await fetchHistory(octokit, { owner, repo, workflow: request.workflow, branch, prefix: request.artifactName, agent, runs }, scratch)
    for (const problem of fetched.problems) log.warning(`${agent}: trend: ${problem}`)
    log.info(`${agent}: trend of ${branch} from ${fetched.entries.length} of its last ${fetched.runsSeen} successful run(s)`)
    return { branch, entries: fetched.entries }
  } catch (error) {
    log.info(`${agent}: the default branch's history could not be read, so no trend is shown: ${apiFailure(error, 'actions: read')}`)
    return null
  }
}

/** A run as `compare` finds it, or an agent's name for its newest run: what a CI step just made. */
async function runToPublish(resultsDir: string, reference: string): Promise<RunLocation> {
  const newest = reference.includes('/') ? undefined : (await listRuns(resultsDir)).filter((r) => r.id.startsWith(`${reference}/`)).at(-1)
  return newest ?? findRun(resultsDir, reference)
}

/** The publication's words on stderr, so stdout keeps the markdown clean for a pipe. */
function terminalLog(ctx: PipelineContext, mask: Mask): PublishLog {
  return {
    info: (message) => ctx.stderr.write(mask(`${message}\n`)),
    notice: (message) => ctx.stderr.write(mask(`note: ${message}\n`)),
    warning: (message) => ctx.stderr.write(mask(`warning: ${message}\n`)),
  }
}
