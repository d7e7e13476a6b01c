import type { Shard } from '../../records/journal/records.ts'

/**
 * The scenarios an adaptive shard owns (run --adaptive --shard I/N, issue 39): whole scenarios, not
 * every N-th attempt as a fixed run's shard takes (select-scenarios.ts planAttempts), since the
 * adaptive rule decides a scenario's rounds on all of its attempts. Sorted by id, the I-th of every N:
 * shards differ by one scenario at most, the same selection always splits the same way whatever order
 * the files load in, and the shares of 1/N … N/N are disjoint and together every scenario.
 */
export function scenarioShare<T extends { id: string }>(scenarios: readonly T[], shard: Shard | null): T[] {
  const sorted = [...scenarios].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
  return shard ? sorted.filter((_, index) => index % shard.total === shard.index - 1) : sorted
}
