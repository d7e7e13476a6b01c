import { isDeepStrictEqual } from 'node:util'
import type { RunManifest, Shard } from '../../records/journal/records.ts'
import type { AdaptiveRecord } from '../../records/journal/adaptive-record.ts'
import { scenarioShare } from '../../play/runner/shard-scenarios.ts'
import { InputError } from '../../base/shared/errors.ts'

/**
 * Merging adaptive shards (run --adaptive --shard I/N, issue 39) exactly. Each shard owns whole
 * scenarios (play/runner/shard-scenarios.ts) and decided their rounds against one baseline with one
 * rule and ceiling; the merged run has every scenario's attempts and stop, the rule's settings once.
 * Shards that disagree on the rule, its baseline or ceiling, or whose scenarios overlap or are not
 * their share, would make a run no rule played: refused, saying which.
 */
export interface ShardOfRun {
  manifest: RunManifest
  shard: Shard
}

/** Both adaptive with the same rule, baseline, ceiling and levels, or neither. */
export function checkSameAdaptive(a: RunManifest, b: RunManifest): void {
  const first = a.settings.adaptive
  const other = b.settings.adaptive
  if (!first && !other) return
  if (!first || !other) {
    const [adaptive, fixed] = first ? [a, b] : [b, a]
    throw new InputError(`${adaptive.id} played adaptive rounds (--adaptive) and ${fixed.id} a fixed -k: they are not shards of one run`)
  }
  const disagreements = [
    first.rule !== other.rule ? `the rule (${first.rule}, ${other.rule})` : '',
    first.baseline !== other.baseline ? `the baseline (${first.baseline}, ${other.baseline})` : '',
    first.maxAttempts !== other.maxAttempts ? `the ceiling (--max-attempts ${first.maxAttempts}, ${other.maxAttempts})` : '',
    a.settings.k !== b.settings.k ? `the first round (-k ${a.settings.k}, ${b.settings.k})` : '',
    first.scenarioAlpha !== other.scenarioAlpha || first.pooledAlpha !== other.pooledAlpha || first.pooledKeep !== other.pooledKeep ? "the rule's levels" : '',
  ].filter(Boolean)
  if (disagreements.length) throw new InputError(`${a.id} and ${b.id} are not shards of one adaptive run: they disagree on ${disagreements.join(', ')}`)
}

/**
 * The merged run's record: every shard's scenarios with their attempts and stops. Refuses a scenario
 * two shards decided, a shard whose scenarios are not its share, and rounds not decided yet.
 */
export function joinAdaptiveShares(shards: readonly ShardOfRun[]): AdaptiveRecord {
  const owner = new Map<string, ShardOfRun>()
  for (const shard of shards) {
    const record = recordOf(shard)
    for (const id of Object.keys(record.scenarios)) {
      const other = owner.get(id)
      if (other) throw new InputError(`${label(other)} and ${label(shard)} both played scenario ${id}: adaptive shards own whole scenarios, each its own, so these are not shards of one run`)
      owner.set(id, shard)
    }
  }
  for (const shard of shards) {
    const record = recordOf(shard)
    const share = scenarioShare(shard.manifest.scenarios, shard.shard).map((s) => s.id)
    const decided = Object.keys(record.scenarios).sort()
    if (!isDeepStrictEqual(share, decided)) throw new InputError(`${label(shard)} played ${list(decided)}, not its share of the run's scenarios (${list(share)})`)
    const open = decided.filter((id) => record.scenarios[id]!.stopped === null)
    if (open.length) throw new InputError(`${label(shard)}: the rounds of ${list(open)} were not decided; resume it first (convy-ci resume ${shard.manifest.id})`)
  }
  const entries = shards.flatMap((shard) => Object.entries(recordOf(shard).scenarios))
  return { scenarios: Object.fromEntries(entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) }
}

/** The original attempts an adaptive run (or shard) owns: each of its scenarios' 1 … planned, sorted by scenario id. */
export function adaptiveOriginals(record: AdaptiveRecord): { scenario: string; attempt: number }[] {
  return Object.keys(record.scenarios)
    .sort()
    .flatMap((scenario) => Array.from({ length: record.scenarios[scenario]!.planned }, (_, i) => ({ scenario, attempt: i + 1 })))
}

function recordOf(shard: ShardOfRun): AdaptiveRecord {
  if (!shard.manifest.adaptive) throw new InputError(`${label(shard)} played adaptive rounds but its run.json records none; it was not written by convy-ci run --adaptive`)
  return shard.manifest.adaptive
}

function label(shard: ShardOfRun): string {
  return `shard ${shard.shard.index} of ${shard.shard.total} (${shard.manifest.id})`
}

function list(ids: readonly string[]): string {
  return ids.length === 0 ? 'no scenario' : ids.length > 6 ? `${ids.slice(0, 6).join(', ')}, … (${ids.length})` : ids.join(', ')
}
