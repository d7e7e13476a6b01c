import { isDeepStrictEqual } from 'node:util'
import { readAllAttempts, readManifest } from '../../records/journal/read-run.ts'
import type { Attempt, RunManifest, Shard } from '../../records/journal/records.ts'
import type { Writer } from '../../records/journal/folder-lock.ts'
import { newRunId, type RunLocation } from '../../records/journal/run-folder.ts'
import { RunJournal } from '../../records/journal/run-journal.ts'
import { writeIndex } from '../../app/pipeline/write-index.ts'
import { writeRunReportAndTally } from '../../app/pipeline/write-report.ts'
import type { RunTally } from '../../records/tally/run-tally.ts'
import { planAttempts } from '../../play/runner/select-scenarios.ts'
import { attemptCeiling, plannedAttempts } from '../../records/journal/adaptive-record.ts'
import { errorMessage, InputError } from '../../base/shared/errors.ts'
import { adaptiveOriginals, checkSameAdaptive, joinAdaptiveShares } from './adaptive-shares.ts'

interface ShardRun {
  dir: string
  manifest: RunManifest
  shard: Shard
  attempts: Attempt[]
}

/**
 * Merges shards exactly: the shards of one run (same agent, models, scenarios and settings, each
 * finished, each holding exactly its own slice) together hold the unsharded run's attempts, which
 * become one run folder in resultsDir, with its report. Anything else is refused, saying why.
 * Adaptive shards (adaptive-shares.ts) each hold whole scenarios with the attempts their rounds gave
 * them; the merged run.json has every scenario's attempts and stop.
 */
export async function mergeShards(dirs: readonly string[], resultsDir: string, writer: Writer, onWarning: (message: string) => void = () => {}): Promise<RunLocation & { tally: RunTally | null }> {
  const shards: ShardRun[] = []
  for (const dir of dirs) {
    const manifest = await readManifest(dir)
    if (!manifest.settings.shard) throw new InputError(`${manifest.id} is not a shard (it was run without --shard); only shards are merged`)
    shards.push({ dir, manifest, shard: manifest.settings.shard, attempts: await readAllAttempts(dir) })
  }
  checkComplete(shards)
  const first = shards[0]!.manifest
  for (const { manifest } of shards.slice(1)) {
    checkSameAdaptive(first, manifest)
    checkSameRun(first, manifest)
  }
  for (const shard of shards) {
    if (shard.manifest.state !== 'finished') throw new InputError(`${label(shard)} (${shard.manifest.id}) is ${shard.manifest.state}; resume it first (convy-ci resume ${shard.manifest.id})`)
  }
  const adaptive = first.settings.adaptive ? joinAdaptiveShares(shards) : null

  const attempts = new Map<string, Attempt>()
  for (const shard of shards) {
    const planned = ownOriginals(shard).map((p) => key(p.scenario, p.attempt))
    const own = new Set(planned)
    for (const attempt of shard.attempts) {
      const k = key(attempt.scenario, attempt.attempt)
      // A replay of a user_error attempt belongs to the shard that played its original.
      const owner = attempt.replayOf === undefined ? k : key(attempt.scenario, attempt.replayOf)
      if (!own.has(owner) || attempts.has(k)) throw new InputError(`${label(shard)} (${shard.manifest.id}) holds ${attempt.scenario} attempt ${attempt.attempt}, which is not its own or appears twice`)
      attempts.set(k, attempt)
    }
    const missing = planned.filter((k) => !attempts.has(k))
    if (missing.length) throw new InputError(`${label(shard)} (${shard.manifest.id}) lacks ${missing.length} of its attempts; resume it first`)
  }

  const starts = shards.map((s) => s.manifest.startedAt).sort()
  const ends = shards.map((s) => s.manifest.finishedAt ?? s.manifest.startedAt).sort()
  const manifest: RunManifest = {
    ...first,
    id: newRunId(first.agent.name, new Date(starts[0]!)),
    settings: { ...first.settings, shard: null },
    ...(adaptive ? { adaptive } : {}),
    startedAt: starts[0]!,
    finishedAt: null,
    state: 'running',
  }
  const journal = await RunJournal.create(resultsDir, manifest, writer)
  let tally: RunTally | null = null
  try {
    // The unsharded run's order, so the merged folder reads the same whichever shard ended first.
    // Replays are numbered the ceiling after their original (play/runner/replay-user-errors.ts).
    const ceiling = attemptCeiling(first.settings)
    const order = adaptive ? adaptiveOriginals(adaptive) : planAttempts(first.scenarios, (id) => plannedAttempts(first, id), null).map((p) => ({ scenario: p.scenario.id, attempt: p.attempt }))
    for (const planned of order) {
      const original = attempts.get(key(planned.scenario, planned.attempt))!
      await journal.append(original)
      const replay = attempts.get(key(planned.scenario, planned.attempt + ceiling))
      if (replay?.replayOf === planned.attempt) await journal.append(replay)
    }
    await journal.close()
    const finishedAt = new Date(ends.at(-1)!)
    // The page first, then `finished`, as a run ends (finish-run.ts).
    try {
      tally = (await writeRunReportAndTally(journal.dir, { manifest: journal.withState('finished', finishedAt) })).tally
    } catch (error) {
      onWarning(`the merged run's report could not be written: ${errorMessage(error)}`)
    }
    await journal.setState('finished', finishedAt)
  } finally {
    await journal.release()
  }
  try {
    await writeIndex(resultsDir, tally ? [{ dir: journal.dir, tally }] : [])
  } catch (error) {
    onWarning(`the index could not be written: ${errorMessage(error)}`)
  }
  return { id: journal.current.id, dir: journal.dir, tally }
}

/** The original attempts a shard owns: whole scenarios as its rounds gave them (adaptive), else every N-th attempt. */
function ownOriginals(shard: ShardRun): { scenario: string; attempt: number }[] {
  const { manifest } = shard
  if (manifest.settings.adaptive && manifest.adaptive) return adaptiveOriginals(manifest.adaptive)
  return planAttempts(manifest.scenarios, (id) => plannedAttempts(manifest, id), shard.shard).map((p) => ({ scenario: p.scenario.id, attempt: p.attempt }))
}

function checkComplete(shards: readonly ShardRun[]): void {
  const total = shards[0]!.shard.total
  const other = shards.find((s) => s.shard.total !== total)
  if (other) throw new InputError(`${shards[0]!.manifest.id} is one of ${total} shards but ${other.manifest.id} one of ${other.shard.total}; merge the shards of one run`)
  for (let index = 1; index <= total; index++) {
    const found = shards.filter((s) => s.shard.index === index)
    if (found.length === 0) throw new InputError(`shard ${index} of ${total} is missing; merge all ${total} shards`)
    if (found.length > 1) throw new InputError(`shard ${index} of ${total} is given twice (${found.map((s) => s.manifest.id).join(', ')})`)
  }
}

/** Shards of one run differ only in their place: anything else would make the merged run a mixture. */
function checkSameRun(a: RunManifest, b: RunManifest): void {
  const differences = [
    a.agent.name !== b.agent.name ? `the agent (${a.agent.name}, ${b.agent.name})` : '',
    a.agent.name === b.agent.name && (a.agent.fingerprint !== b.agent.fingerprint || a.agent.version !== b.agent.version) ? `the agent's configuration or module` : '',
    a.models.user !== b.models.user || a.models.judge !== b.models.judge || a.models.fingerprint !== b.models.fingerprint ? "convy-ci's models or their configuration" : '',
    a.convyVersion !== b.convyVersion ? `the convy-ci version (${a.convyVersion}, ${b.convyVersion})` : '',
    !isDeepStrictEqual({ ...a.settings, shard: null }, { ...b.settings, shard: null }) ? 'the settings (-k, filters, timeouts, parallel, smoke)' : '',
    !isDeepStrictEqual(a.scenarios, b.scenarios) ? 'the scenarios' : '',
    // Attempts planned from the history: every shard must have split the same plan.
    a.settings.attemptsByHistory && !isDeepStrictEqual(a.adaptive, b.adaptive) ? 'the attempts planned per scenario from the history' : '',
  ].filter(Boolean)
  if (differences.length) throw new InputError(`${a.id} and ${b.id} are not shards of one run: they differ in ${differences.join(', ')}`)
}

function label(shard: ShardRun): string {
  return `shard ${shard.shard.index} of ${shard.shard.total}`
}

function key(scenario: string, attempt: number): string {
  return `${scenario}\u0000${attempt}`
}
