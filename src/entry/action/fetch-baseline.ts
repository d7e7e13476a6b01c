import { mkdir, rm } from 'node:fs/promises'
import { join } from 'node:path'
import type { RunTally } from '../../records/tally/run-tally.ts'
import { readTally } from '../../records/tally/read-tally.ts'
import { apiFailure } from '../../adapters/github/api-error.ts'
import { downloadArtifact } from '../../adapters/github/artifacts.ts'
import { baselineCandidates, findRunArtifact, type RunArtifact } from '../../adapters/github/baseline.ts'
import { baselineHealth, type BaselineHealth } from '../../verdict/baseline-health.ts'
import { walkBack } from '../../app/publish/walk-back.ts'
import { runArtifactName } from '../../adapters/github/artifact-names.ts'
import { restoreBaselineFromCache } from './baseline-cache.ts'
import type { ActionDeps } from './deps.ts'
import type { BaselineSource } from '../../verdict/baseline-health.ts'

/** Where the baseline comes from: a workflow run the user named, or the newest good one on a branch. */
export interface BaselineWhere {
  runId: number | null
  /** The workflow whose runs are searched; null searches all of the repository's. */
  workflow: number | null
  /** Null: the repository's default branch. */
  branch: string | null
  /** The run being compared, which is never its own baseline. */
  excludeRunId: number
  /** Only a baseline that finished by then (an ISO time): what the adaptive shards of one workflow run agree on. */
  finishedBefore?: string | null
}

export type FetchedBaseline = { tally: RunTally; source: BaselineSource; health: BaselineHealth; passedOver: readonly string[]; dir: string; lookedBack?: string | null } | { tally: null; why: string }

/**
 * Finds and reads an agent's baseline run; anything missing is a reason, not an error. The artifact
 * comes first (it is the run as uploaded, found through the REST API): the newest healthy one against
 * `against`, the PR's run, walking back past unhealthy ones (app/publish/walk-back.ts). When none can
 * be had and no run was named, the newest run the baseline branch saved to the Actions cache.
 */
export async function fetchBaseline(deps: ActionDeps, agent: string, where: BaselineWhere, against: RunTally | null = null): Promise<FetchedBaseline> {
  const fromArtifact = await fetchArtifactBaseline(deps, agent, where, against)
  if (fromArtifact.tally) return fromArtifact
  const { error, short } = fromArtifact as ArtifactMiss
  const branch = where.branch ?? deps.github.defaultBranch
  // A run the workflow named is that run or nothing.
  const restored = where.runId === null && branch !== null ? await restoreBaselineFromCache(deps, agent, branch) : null
  const cached = restored?.tally && !finishedBy(restored.tally, where.finishedBefore) ? { tally: null, why: `the cached baseline ${restored.tally.manifest.id} finished after this workflow run started` } : restored
  if (cached?.tally) {
    deps.log.info(`${agent}: ${error ?? fromArtifact.why}; baseline ${cached.tally.manifest.id} from the Actions cache (${cached.key})`)
    return { tally: cached.tally, source: { kind: 'cache', key: cached.key, because: short }, health: baselineHealth(cached.tally, against), passedOver: [], dir: cached.dir }
  }
  if (error) deps.log.warning(`${agent}: ${error}`)
  return { tally: null, why: cached ? `${fromArtifact.why}; ${cached.why}` : fromArtifact.why }
}

/** Why there is no artifact to use: in full, in a few words for the comment, and the error if one. */
interface ArtifactMiss {
  tally: null
  why: string
  short: string
  error?: string
}

async function fetchArtifactBaseline(deps: ActionDeps, agent: string, where: BaselineWhere, against: RunTally | null): Promise<FetchedBaseline | ArtifactMiss> {
  const { octokit, token, github } = deps
  if (!octokit || !token) return { tally: null, why: 'there is no github-token to look the baseline up with', short: 'there is no github-token to read artifacts with' }
  const { owner, repo } = github.repository
  const name = runArtifactName(deps.inputs.artifactName, agent)
  const download = async (artifact: RunArtifact, index: number): Promise<{ tally: RunTally; dir: string }> => {
    const dir = join(deps.tempDir, 'baseline', agent, String(index))
    await rm(dir, { recursive: true, force: true })
    await mkdir(dir, { recursive: true })
    await downloadArtifact(deps.artifacts, artifact.artifactId, dir, { token, owner, repo, runId: artifact.runId }, artifact.digest)
    // Another workflow run's data: masked as it is read, as a pull request's run is in mode publish.
    return { tally: await readTally(dir, { mask: deps.mask }), dir }
  }
  const otherAgent = (tally: RunTally, runId: number): ArtifactMiss => ({ tally: null, why: `artifact ${name} of workflow run ${runId} holds a run of ${tally.manifest.agent.name}, not ${agent}`, short: 'its artifact holds a run of another agent' })
  try {
    if (where.runId !== null) {
      // A run the workflow named is that run, healthy or not: its health is still said and counted.
      const found = await findRunArtifact(octokit, { owner, repo, runId: where.runId, name })
      if (found === null || found === 'expired') return { tally: null, why: `workflow run ${where.runId} has no ${found ? 'unexpired ' : ''}artifact ${name}`, short: '' }
      const { tally, dir } = await download(found, 0)
      if (tally.manifest.agent.name !== agent) return otherAgent(tally, found.runId)
      deps.log.info(`${agent}: baseline ${tally.manifest.id} from workflow run ${found.runId}`)
      return { tally, source: { kind: 'artifact', runId: found.runId }, health: baselineHealth(tally, against), passedOver: [], dir }
    }
    const branch = where.branch ?? github.defaultBranch ?? (await octokit.rest.repos.get({ owner, repo })).data.default_branch
    const seen = { runsSeen: 0, expired: 0 }
    const candidates = baselineCandidates(octokit, { owner, repo, workflow: where.workflow, branch, artifactName: name, excludeRunId: where.excludeRunId, finishedBefore: where.finishedBefore ?? null }, seen)
    // Each candidate downloaded only when the walk asks for it; one that holds another agent's run ends the walk.
    let stranger: ArtifactMiss | null = null
    async function* downloaded(): AsyncGenerator<{ tally: RunTally; dir: string; runId: number }> {
      let index = 0
      for await (const artifact of candidates) {
        const got = await download(artifact, index++)
        if (got.tally.manifest.agent.name !== agent) {
          stranger = otherAgent(got.tally, artifact.runId)
          return
        }
        yield { ...got, runId: artifact.runId }
      }
    }
    const walked = await walkBack(downloaded(), async (candidate) => candidate.tally, against)
    if (!walked && stranger) return stranger
    if (!walked) {
      const expired = seen.expired ? ` (${seen.expired} had one that expired)` : ''
      const short = seen.expired ? 'its artifact has expired' : `no run on ${branch} has an artifact of it`
      return { tally: null, why: `no successful run of this workflow on ${branch} uploaded ${name}${expired}; the next push to ${branch} makes one`, short }
    }
    const { dir, runId } = walked.candidate
    if (walked.passedOver.length) deps.log.info(`${agent}: walked back past ${walked.passedOver.length} newer run(s) of ${branch} with too many errors: ${walked.passedOver.join('; ')}`)
    deps.log.info(`${agent}: baseline ${walked.tally.manifest.id} from workflow run ${runId}`)
    return { tally: walked.tally, source: { kind: 'artifact', runId }, health: walked.health, passedOver: walked.passedOver, dir, lookedBack: walked.lookedBack }
  } catch (error) {
    const denied = typeof error === 'object' && error !== null && 'status' in error && (error.status === 403 || error.status === 404)
    return {
      tally: null,
      why: 'the baseline artifact could not be fetched (see the warnings)',
      short: denied ? "this workflow's token cannot read artifacts" : 'its artifact could not be fetched',
      error: `the baseline artifact could not be fetched: ${apiFailure(error, 'actions: read')}`,
    }
  }
}

/** Whether a baseline run finished by `before` (an ISO time; null: any time). */
function finishedBy(tally: RunTally, before: string | null | undefined): boolean {
  const finished = tally.manifest.finishedAt
  return !before || (finished !== null && Date.parse(finished) <= Date.parse(before))
}

/**
 * The baseline run with this id: the one adaptive shards decided their rounds against (run.json's
 * settings.adaptive.baseline), searched where fetchBaseline searches, newest first, then in the
 * Actions cache; so the merge job compares with it, not with a newer run. Not found: the reason.
 */
export async function fetchBaselineRun(deps: ActionDeps, agent: string, where: BaselineWhere, id: string, against: RunTally): Promise<FetchedBaseline> {
  const { octokit, token, github } = deps
  const branch = where.branch ?? github.defaultBranch
  if (octokit && token && where.runId === null && branch !== null) {
    const { owner, repo } = github.repository
    const name = runArtifactName(deps.inputs.artifactName, agent)
    try {
      let index = 0
      for await (const artifact of baselineCandidates(octokit, { owner, repo, workflow: where.workflow, branch, artifactName: name, excludeRunId: where.excludeRunId, maxRuns: 10 })) {
        const dir = join(deps.tempDir, 'baseline', agent, `recorded-${index++}`)
        await rm(dir, { recursive: true, force: true })
        await mkdir(dir, { recursive: true })
        await downloadArtifact(deps.artifacts, artifact.artifactId, dir, { token, owner, repo, runId: artifact.runId }, artifact.digest)
        const tally = await readTally(dir, { mask: deps.mask })
        if (tally.manifest.id !== id) continue
        deps.log.info(`${agent}: baseline ${id} from workflow run ${artifact.runId}, the one the shards' rounds were decided against`)
        return { tally, source: { kind: 'artifact', runId: artifact.runId }, health: baselineHealth(tally, against), passedOver: [], dir }
      }
    } catch (error) {
      deps.log.warning(`${agent}: the baseline artifact could not be fetched: ${apiFailure(error, 'actions: read')}`)
    }
  }
  // A run the workflow named is that run: fetched as ever, and it must be the recorded one.
  if (where.runId !== null) {
    const named = await fetchBaseline(deps, agent, where, against)
    return named.tally && named.tally.manifest.id === id ? named : { tally: null, why: `the baseline the shards' rounds were decided against, ${id}, is not the run the workflow names${named.tally ? ` (${named.tally.manifest.id})` : ` (${named.why})`}` }
  }
  // Not among the branch's newest artifacts, or they could not be listed: the Actions cache, where the
  // branch's push also keeps its run. (fetchBaseline here would download the same artifacts again.)
  const cached = branch !== null ? await restoreBaselineFromCache(deps, agent, branch) : null
  if (cached?.tally && cached.tally.manifest.id === id) {
    deps.log.info(`${agent}: baseline ${id} from the Actions cache (${cached.key}), the one the shards' rounds were decided against`)
    return { tally: cached.tally, source: { kind: 'cache', key: cached.key, because: 'its artifact was not among the newest' }, health: baselineHealth(cached.tally, against), passedOver: [], dir: cached.dir }
  }
  const elsewhere = cached?.tally ? ` (the Actions cache holds ${cached.tally.manifest.id})` : ''
  return { tally: null, why: `the baseline the shards' rounds were decided against, ${id}, was not found among the newest 10 runs of ${branch ?? 'the baseline branch'}, nor in the Actions cache${elsewhere}` }
}

/** Per step: the trend and the baseline of one pull request both ask, and one request answers both. */
// Keyed by the run's GitHub context, which a copy of deps with other inputs (the base branch's rules) shares.
const runsRead = new WeakMap<ActionDeps['github'], Map<number, Promise<RunFacts>>>()

/** What the baseline search needs of this workflow run: its workflow, and when it was created. */
interface RunFacts {
  workflow: number | null
  createdAt: string | null
}

/** The workflow a run belongs to, so the baseline comes from the same workflow; null (search all) if unknown. */
export async function workflowOfRun(deps: ActionDeps, runId: number): Promise<number | null> {
  return (await factsOfRun(deps, runId)).workflow
}

/** When a run was created (its first attempt; null if unknown): every job of it, re-run or not, reads the same. */
export async function createdAtOfRun(deps: ActionDeps, runId: number): Promise<string | null> {
  return (await factsOfRun(deps, runId)).createdAt
}

function factsOfRun(deps: ActionDeps, runId: number): Promise<RunFacts> {
  const read = runsRead.get(deps.github) ?? new Map<number, Promise<RunFacts>>()
  runsRead.set(deps.github, read)
  let facts = read.get(runId)
  if (!facts) {
    facts = readRunFacts(deps, runId)
    read.set(runId, facts)
  }
  return facts
}

async function readRunFacts(deps: ActionDeps, runId: number): Promise<RunFacts> {
  if (!deps.octokit) return { workflow: null, createdAt: null }
  const { owner, repo } = deps.github.repository
  try {
    const { data } = await deps.octokit.rest.actions.getWorkflowRun({ owner, repo, run_id: runId })
    return { workflow: data.workflow_id, createdAt: data.created_at }
  } catch (error) {
    // Not a warning yet: the baseline may still be found (in every workflow, or in the Actions cache).
    deps.log.info(`workflow run ${runId} could not be read, so the baseline is searched in every workflow: ${apiFailure(error, 'actions: read')}`)
    return { workflow: null, createdAt: null }
  }
}
