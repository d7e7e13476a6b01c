import type { Shard } from '../../records/journal/records.ts'

/** Scenarios (or anything with an id) in id order: the one order a run is planned and split in, whatever order the files load in. */
export function byId<T extends { id: string }>(a: T, b: T): number {
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0
}

/** Shard I of N: the I-th of every N items, so shards differ by one item at most and together are every item, once. */
export function shardOf<T>(items: readonly T[], shard: Shard | null): T[] {
  return shard ? items.filter((_, index) => index % shard.total === shard.index - 1) : [...items]
}

/**
 * The scenarios an adaptive shard owns (run --adaptive --shard I/N, issue 39): whole scenarios, not
 * every N-th attempt as a fixed run's shard takes (select-scenarios.ts planAttempts), since the
 * adaptive rule decides a scenario's rounds on all of its attempts. Sorted by id, the I-th of every N:
 * shards differ by one scenario at most, the same selection always splits the same way whatever order
 * the files load in, and the shares of 1/N … N/N are disjoint and together every scenario.
 */
export function scenarioShare<T extends { id: string }>(scenarios: readonly T[], shard: Shard | null): T[] {
  return shardOf([...scenarios].sort(byId), shard)
}
