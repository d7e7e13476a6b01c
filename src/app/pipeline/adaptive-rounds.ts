import { findRun, readAllAttempts, readManifest } from '../../records/journal/read-run.ts'
import type { RunJournal } from '../../records/journal/run-journal.ts'
import type { Attempt, RunManifest, Shard } from '../../records/journal/records.ts'
import type { Scenario } from '../../records/scenario/scenario.ts'
import { attemptCeiling, type AdaptiveRecord, type AdaptiveSettings } from '../../records/journal/adaptive-record.ts'
import { ADAPTIVE_LEVELS, ADAPTIVE_RULE, adaptiveCounts, adaptiveLook, type AdaptiveScenario } from '../../verdict/adaptive-rule.ts'
import type { Counts } from '../../base/stats/counts.ts'
import { Rounds } from '../../play/runner/rounds.ts'
import { scenarioShare } from '../../play/runner/shard-scenarios.ts'
import { InputError } from '../../base/shared/errors.ts'

/** The baseline as the adaptive rule reads it: each scenario's counts, by id. */
export interface AdaptiveBaseline {
  id: string
  counts: ReadonlyMap<string, { counts: Counts; decided: Counts }>
}

/** Reads the baseline run named by `run --baseline` (its id, its 4-hex part or its folder). */
export async function loadAdaptiveBaseline(resultsDir: string, reference: string): Promise<AdaptiveBaseline> {
  const location = await findRun(resultsDir, reference)
  const manifest = await readManifest(location.dir)
  const attempts = await readAllAttempts(location.dir)
  return baselineCounts(manifest, attempts)
}

export function baselineCounts(manifest: RunManifest, attempts: readonly Attempt[]): AdaptiveBaseline {
  const verdicts = new Map<string, string[]>()
  for (const attempt of attempts) verdicts.set(attempt.scenario, [...(verdicts.get(attempt.scenario) ?? []), attempt.verdict])
  return { id: manifest.id, counts: new Map([...verdicts].map(([id, list]) => [id, adaptiveCounts(list)])) }
}

/** What `run --adaptive` records in settings.adaptive: the rule, its levels, the ceiling and the baseline. */
export function adaptiveSettings(baseline: AdaptiveBaseline, maxAttempts: number, k: number): AdaptiveSettings {
  if (maxAttempts < k) throw new InputError(`--max-attempts ${maxAttempts}: must be at least -k (${k}), the attempts every scenario plays first`)
  return { rule: ADAPTIVE_RULE, baseline: baseline.id, maxAttempts, ...ADAPTIVE_LEVELS }
}

/**
 * A new adaptive run's record: every scenario it owns given k attempts, none stopped. A shard owns
 * whole scenarios (play/runner/shard-scenarios.ts), and its record names only those: the scenarios it
 * decides, which `merge` joins.
 */
export function firstRounds(scenarios: readonly Scenario[], k: number, shard: Shard | null): AdaptiveRecord {
  return { scenarios: Object.fromEntries(scenarioShare(scenarios, shard).map((s) => [s.id, { planned: k, stopped: null }])) }
}

/**
 * The rounds of an adaptive run (play/runner/rounds.ts) decided by the rule (verdict/adaptive-rule.ts)
 * against the baseline, each decision recorded in run.json as it is taken, so a resume continues them.
 * `scenarios`: the ones to play (run.json keeps copies with secrets masked).
 */
export function adaptiveRounds(journal: RunJournal, baseline: AdaptiveBaseline, scenarios: readonly Scenario[]): Rounds {
  const manifest = journal.current
  const adaptive = manifest.settings.adaptive
  if (!adaptive) throw new Error('adaptiveRounds: the run is not adaptive')
  const record = manifest.adaptive ?? firstRounds(manifest.scenarios, manifest.settings.k, manifest.settings.shard)
  // A shard's rounds, and its pooled look, see only the scenarios it owns.
  const owned = scenarios.filter((s) => s.id in record.scenarios)
  const parameters = { k: manifest.settings.k, maxAttempts: adaptive.maxAttempts, scenarioAlpha: adaptive.scenarioAlpha, pooledAlpha: adaptive.pooledAlpha, pooledKeep: adaptive.pooledKeep }
  const state = {
    planned: new Map(Object.entries(record.scenarios).map(([id, entry]) => [id, entry.planned])),
    stopped: new Set(Object.entries(record.scenarios).flatMap(([id, entry]) => (entry.stopped ? [id] : []))),
  }
  return new Rounds(
    owned,
    state,
    async (id, recorded) => {
      const looking: AdaptiveScenario[] = owned.map((s) => {
        const before = baseline.counts.get(s.id) ?? { counts: { passed: 0, total: 0 }, decided: { passed: 0, total: 0 } }
        const attempts = recorded.get(s.id) ?? []
        const after = adaptiveCounts(attempts.map((a) => a.verdict))
        return { id: s.id, before: before.counts, beforeDecided: before.decided, after: after.counts, afterDecided: after.decided, played: attempts.length }
      })
      const step = adaptiveLook(looking, parameters).get(id)!
      const played = recorded.get(id)?.length ?? 0
      await journal.recordAdaptive(id, step.stopped === null ? { planned: step.next, stopped: null } : { planned: Math.max(1, played), stopped: step.stopped })
      return step.next
    },
    attemptCeiling(manifest.settings),
  )
}
