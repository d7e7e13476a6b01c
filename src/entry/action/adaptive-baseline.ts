import type { RunRequest } from '../../app/pipeline/run-agents.ts'
import type { ActionDeps } from './deps.ts'
import { fetchBaseline, type FetchedBaseline } from './fetch-baseline.ts'
import type { Publication } from './publish-agent.ts'

/**
 * The action's adaptive attempts (input `adaptive`, issue 39): on a pull request, each agent's
 * baseline is fetched just before that agent's run and handed to it, so its rounds play more attempts
 * only where the comparison with that baseline is undecided. What was fetched is kept in `fetched`,
 * so the comparison afterwards is with the same run. An agent without a baseline plays `k`, the
 * attempts the run plays without adaptive.
 */
export function adaptiveRequest(deps: ActionDeps, publication: Publication, k: number): { adaptive: RunRequest['adaptive']; fetched: Map<string, FetchedBaseline> } {
  const { inputs, log, github } = deps
  const fetched = new Map<string, FetchedBaseline>()
  if (!inputs.adaptive) return { adaptive: undefined, fetched }
  // Rounds decide on the whole of a scenario's attempts, which a shard does not see; a push has nothing to compare with yet.
  const why = inputs.shard ? 'a shard sees only its share of the attempts' : !github.pullRequest ? 'this is not a pull request' : null
  if (why) {
    log.info(`adaptive: ${why}, so each scenario plays ${k} attempts`)
    return { adaptive: undefined, fetched }
  }
  const where = publication.baseline
  const baselineOf = async (agent: string): Promise<string | null> => {
    const found: FetchedBaseline = 'none' in where ? { tally: null, why: where.none ?? 'no baseline is compared with' } : await fetchBaseline(deps, agent, where)
    if (!('none' in where)) fetched.set(agent, found)
    if (!found.tally) {
      log.info(`${agent}: adaptive: no baseline to decide rounds against (${found.why}), so each scenario plays ${k} attempts`)
      return null
    }
    log.info(`${agent}: adaptive: ${k} attempts per scenario, then up to ${inputs.maxAttempts} where the comparison with ${found.tally.manifest.id} is undecided`)
    return found.dir
  }
  return { adaptive: { baseline: baselineOf, maxAttempts: inputs.maxAttempts }, fetched }
}
