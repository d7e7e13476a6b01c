import { InputError } from '../../base/shared/errors.ts'
import type { Shard } from '../../records/journal/records.ts'
import type { Scenario } from '../../records/scenario/scenario.ts'
import { byId, shardOf } from './shard-scenarios.ts'

/** `*` matches any run of characters, `?` one; ids have no folders, so `**` is the same as `*`. */
export function globToRegExp(glob: string): RegExp {
  const body = glob.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*+/g, '.*').replace(/\?/g, '.')
  return new RegExp(`^${body}$`, 'i')
}

export function selectScenarios(all: readonly Scenario[], filters: { globs: readonly string[]; tags: readonly string[] }): Scenario[] {
  const patterns = filters.globs.map(globToRegExp)
  const selected = all.filter(
    (s) => (patterns.length === 0 || patterns.some((p) => p.test(s.id))) && (filters.tags.length === 0 || s.tags.some((t) => filters.tags.includes(t))),
  )
  if (selected.length === 0) {
    const asked = [...filters.globs.map((g) => `--scenarios ${g}`), ...filters.tags.map((t) => `--tags ${t}`)].join(' ')
    throw new InputError(`no scenario matches ${asked || 'the filters'} (there are ${all.length}: ${all.slice(0, 8).map((s) => s.id).join(', ')}${all.length > 8 ? ', …' : ''})`)
  }
  return selected
}

export interface PlannedAttempt {
  scenario: Scenario
  attempt: number
  /** A replay's user lines, taken from a recorded attempt, instead of the simulated user or script. */
  userLines?: readonly string[]
  /** Set on the replay of a user_error attempt: that attempt's number (replay-user-errors.ts). */
  replayOf?: number
}

/**
 * Every (scenario, attempt) of a run, in a stable order. A shard takes every N-th of them, so shards
 * differ in size by one attempt at most and the union of all shards is exactly the unsharded run.
 * `k`: attempts per scenario, or each scenario's own (a run planned from the history, issue 39).
 */
export function planAttempts(scenarios: readonly Scenario[], k: number | ((scenario: string) => number), shard: Shard | null): PlannedAttempt[] {
  const attemptsOf = typeof k === 'number' ? () => k : k
  const all = [...scenarios].sort(byId).flatMap((scenario) => Array.from({ length: attemptsOf(scenario.id) }, (_, i) => ({ scenario, attempt: i + 1 })))
  return shardOf(all, shard)
}

export function parseShard(text: string): Shard {
  const match = /^(\d+)\/(\d+)$/.exec(text.trim())
  const index = Number(match?.[1])
  const total = Number(match?.[2])
  if (!match || index < 1 || total < 1 || index > total) throw new InputError(`--shard ${text}: expected I/N with 1 ≤ I ≤ N, e.g. 1/4`)
  return { index, total }
}
