import type { RunRequest } from '../../app/pipeline/run-agents.ts'
import type { RunTally } from '../../records/tally/run-tally.ts'
import type { ActionDeps } from './deps.ts'
import { createdAtOfRun, fetchBaseline, fetchBaselineRun, type BaselineWhere, type FetchedBaseline } from './fetch-baseline.ts'
import type { Publication } from './publish-agent.ts'
import { baseBranchRules, withRules } from './base-rules.ts'
import { planPublication } from './plan-publication.ts'

/**
 * The action's adaptive attempts (input `adaptive`, issue 39): on a pull request or a merge queue's
 * group, each agent's baseline is fetched just before that agent's run and handed to it, so its rounds
 * play more attempts only where the comparison with that baseline is undecided. What was fetched is
 * kept in `fetched`, so the comparison afterwards is with the same run. An agent without a baseline
 * plays `k`, the attempts the run plays without adaptive.
 *
 * A shard (issue 39 item 3) owns whole scenarios and adapts them against the baseline the merge job
 * will compare with: the newest that had finished when the workflow run was created, so every shard
 * finds the same one whenever it starts, and the merge job fetches that one by its id (recordedBaseline).
 */
export async function adaptiveRequest(deps: ActionDeps, publication: Publication, k: number): Promise<{ adaptive: RunRequest['adaptive']; fetched: Map<string, FetchedBaseline> }> {
  const { inputs, log, github } = deps
  const fetched = new Map<string, FetchedBaseline>()
  if (!inputs.adaptive) return { adaptive: undefined, fetched }
  // A push has nothing to compare with yet: it is the baseline's side.
  if (!github.pullRequest && !github.mergeGroup) {
    log.info(`adaptive: this is neither a pull request nor a merge queue's group, so each scenario plays ${k} attempts`)
    return { adaptive: undefined, fetched }
  }
  const where = inputs.shard ? await shardBaseline(deps) : publication.baseline
  const baselineOf = async (agent: string): Promise<string | null> => {
    const found: FetchedBaseline = 'none' in where ? { tally: null, why: where.none ?? 'no baseline is compared with' } : await fetchBaseline(deps, agent, where)
    if (!('none' in where)) fetched.set(agent, found)
    if (!found.tally) {
      log.info(`${agent}: adaptive: no baseline to decide rounds against (${found.why}), so each scenario plays ${k} attempts`)
      return null
    }
    const share = inputs.shard ? ` (shard ${inputs.shard.index} of ${inputs.shard.total}: its share of whole scenarios)` : ''
    log.info(`${agent}: adaptive${share}: ${inputs.adaptiveFirstRound} attempts per scenario, then up to ${inputs.maxAttempts} where the comparison with ${found.tally.manifest.id} is undecided`)
    return found.dir
  }
  return { adaptive: { baseline: baselineOf, maxAttempts: inputs.maxAttempts, firstRound: inputs.adaptiveFirstRound }, fetched }
}

/**
 * Where a shard finds its baseline: where the merge job looks (the base branch's rules decide it, as
 * there), among the runs that had finished when this workflow run was created.
 */
async function shardBaseline(deps: ActionDeps): Promise<Publication['baseline']> {
  const rules = await baseBranchRules(deps)
  const { baseline } = await planPublication(rules ? { ...deps, inputs: withRules(deps.inputs, rules.rules) } : deps)
  if ('none' in baseline) return baseline
  return { ...baseline, finishedBefore: await createdAtOfRun(deps, deps.github.runId) }
}

/**
 * The merge job's baseline for a run merged from adaptive shards: the run their rounds were decided
 * against, fetched by its id; undefined for any other run (publishAgent fetches the newest, as ever),
 * and, with a warning, when that run cannot be found.
 */
export async function recordedBaseline(deps: ActionDeps, agent: string, publication: Publication, merged: RunTally): Promise<FetchedBaseline | undefined> {
  const id = merged.manifest.settings.adaptive?.baseline
  if (id === undefined || 'none' in publication.baseline) return undefined
  const where: BaselineWhere = publication.baseline
  const found = await fetchBaselineRun(deps, agent, where, id, merged)
  if (found.tally) return found
  deps.log.warning(`${agent}: ${found.why}; the run is compared with the newest baseline instead`)
  return undefined
}
