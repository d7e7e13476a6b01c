import { keyPart } from '../../adapters/github/actions-cache.ts'
import type { GitHubRun } from '../../adapters/github/event.ts'
import type { Shard } from '../../records/journal/records.ts'

/**
 * The Actions cache keys. Entries cannot be overwritten, so every save gets a key of its own (the
 * workflow run and its attempt) and a restore takes the newest entry by prefix. The artifact-name
 * prefix starts every key, so jobs that keep their runs apart keep their caches apart too.
 */
export interface CacheKeys {
  key: string
  /** Prefixes, most wanted first. */
  restoreKeys: string[]
}

/**
 * The model cache of one step: its agents (they share the project's cache folder) and shard, on
 * this branch, falling back to the pull request's base branch and then the default branch.
 */
export function modelCacheKeys(prefix: string, agents: readonly string[], shard: Shard | null, github: GitHubRun): CacheKeys {
  const who = `${prefix}-cache-${[...agents].sort().map(keyPart).join('+')}${shard ? `-shard-${shard.index}-of-${shard.total}` : ''}`
  const branches = [github.branch, github.pullRequest?.baseRef ?? null, github.defaultBranch].filter((b): b is string => b !== null)
  const restoreKeys = [...new Set(branches)].map((branch) => `${who}-${keyPart(branch)}-`)
  return { key: `${who}-${keyPart(github.branch ?? 'detached')}-${github.runId}-${github.runAttempt}`, restoreKeys }
}

/** An agent's baseline run folder, saved by runs on the baseline branch. */
export function baselineCacheKeys(prefix: string, agent: string, branch: string, github: GitHubRun): CacheKeys {
  const start = `${prefix}-baseline-${keyPart(agent)}-${keyPart(branch)}-`
  return { key: `${start}${github.runId}-${github.runAttempt}`, restoreKeys: [start] }
}
