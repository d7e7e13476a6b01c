// Adaptive attempts (issue 39): whether `run --adaptive` stays honest and keeps its power at a fraction of the cost.
// Run: npm run bench:adaptive   (the table goes in docs/statistics.md, "Adaptive attempts"); SIMULATIONS=1000 for the docs' figures,
// ONLY=text for some rows, POOLED_KEEP=0.05 to try another level for the pooled lean (default ADAPTIVE_LEVELS.pooledKeep),
// SHARDS=4 the shards of the sharded column (run --adaptive --shard I/N: each shard's rounds and pooled look see only its scenarios).
//
// Each simulation plays a baseline of BASELINE_K (10) attempts per scenario and a pull request's run
// twice from the same stream of outcomes: fixed at MAX (10) attempts per scenario, and adaptive —
// k = 3 first, then the looks of verdict/adaptive-rule.ts (3 → 6 → 10) for the scenarios it keeps
// playing. Both runs are decided through compareRuns, baselineHealth and decideGate with `fail-on:
// worse`, the code the CLI and the action run; the adaptive run's run.json carries the rule's record,
// as `run --adaptive` writes it. Noise on every attempt of every run (issue 38): 2% agent errors, 5%
// without a verdict, 5% relabelled user_error. A not-pass (fail, or evidence missing) of an unchanged
// agent is a false alarm; of a changed one, a catch. The sharded column plays the same stream a third
// time, split as `--shard I/SHARDS` splits it (play/runner/shard-scenarios.ts: whole scenarios), each
// shard deciding its rounds on its own scenarios alone, and decides the merged run.
import { compareRuns } from '../src/verdict/compare-runs.ts'
import { decideGate } from '../src/verdict/decide-gate.ts'
import { baselineHealth } from '../src/verdict/baseline-health.ts'
import { wilsonInterval } from '../src/base/stats/intervals.ts'
import { ADAPTIVE_LEVELS, ADAPTIVE_RULE, adaptiveCounts, adaptiveLook, type AdaptiveParameters, type AdaptiveScenario } from '../src/verdict/adaptive-rule.ts'
import type { AdaptiveRecord } from '../src/records/journal/adaptive-record.ts'
import type { Attempt, Verdict } from '../src/records/journal/records.ts'
import { tallyRecord } from '../src/records/tally/run-tally.ts'
import { attempt, manifest } from '../test/compare/run-builder.ts'
import { createRng } from '../test/fakes/synthetic-run.ts'
import { NOISE, outcome, S, scenarios, settings, suite } from './noisy-suite.ts'
import { scenarioShare } from '../src/play/runner/shard-scenarios.ts'

const SIMULATIONS = Number(process.env['SIMULATIONS'] ?? 200)
/** ONLY=collapse: only the rows whose name holds it. */
const ONLY = process.env['ONLY'] ?? ''
const K = 3
const MAX = 10
const BASELINE_K = 10
const SHARDS = Number(process.env['SHARDS'] ?? 4)
const PARAMETERS: AdaptiveParameters = { k: K, maxAttempts: MAX, ...ADAPTIVE_LEVELS, ...(process.env['POOLED_KEEP'] ? { pooledKeep: Number(process.env['POOLED_KEEP']) } : {}) }
const SHARD_PARAMETERS: AdaptiveParameters = { ...PARAMETERS, ...(process.env['SHARD_POOLED_KEEP'] ? { pooledKeep: Number(process.env['SHARD_POOLED_KEEP']) } : {}) }
const now = new Date('2026-03-02T00:00:00Z')


function tallyOf(verdicts: Verdict[][], k: number, adaptive: AdaptiveRecord | null) {
  const attempts: Attempt[] = verdicts.flatMap((list, i) => list.map((verdict, n) => attempt(`s${i}`, n + 1, verdict)))
  const adaptiveSettings = adaptive ? { adaptive: { rule: ADAPTIVE_RULE, baseline: 'baseline', maxAttempts: MAX, ...ADAPTIVE_LEVELS } } : {}
  return tallyRecord({ manifest: manifest({ settings: { ...settings(k), ...adaptiveSettings }, scenarios, ...(adaptive ? { adaptive } : {}) }), attempts })
}

/** The adaptive rule's rounds over a stream of outcomes per scenario: what each scenario played. */
function adaptivePlay(stream: Verdict[][], baseline: Verdict[][], parameters: AdaptiveParameters = PARAMETERS): { played: Verdict[][]; record: AdaptiveRecord } {
  const played = stream.map((list) => list.slice(0, K))
  const record: AdaptiveRecord = { scenarios: Object.fromEntries(stream.map((_, i) => [`s${i}`, { planned: K, stopped: null }])) }
  const before = baseline.map((list) => adaptiveCounts(list))
  for (;;) {
    const looking: AdaptiveScenario[] = played.map((list, i) => {
      const after = adaptiveCounts(list)
      return { id: `s${i}`, before: before[i]!.counts, beforeDecided: before[i]!.decided, after: after.counts, afterDecided: after.decided, played: list.length }
    })
    const steps = adaptiveLook(looking, parameters)
    let more = false
    played.forEach((list, i) => {
      const entry = record.scenarios[`s${i}`]!
      if (entry.stopped !== null) return
      const step = steps.get(`s${i}`)!
      if (step.stopped !== null) entry.stopped = step.stopped
      else {
        played[i] = stream[i]!.slice(0, step.next)
        entry.planned = step.next
        more = true
      }
    })
    if (!more) return { played, record }
  }
}

/** The same rounds played by SHARDS adaptive shards, each on its share of whole scenarios, then merged. */
function shardedPlay(stream: Verdict[][], baseline: Verdict[][]): { played: Verdict[][]; record: AdaptiveRecord } {
  const played: Verdict[][] = stream.map(() => [])
  const record: AdaptiveRecord = { scenarios: {} }
  for (let index = 1; index <= SHARDS; index++) {
    const share = scenarioShare(scenarios, { index, total: SHARDS }).map((s) => Number(s.id.slice(1)))
    const own = adaptivePlay(
      share.map((i) => stream[i]!),
      share.map((i) => baseline[i]!),
      SHARD_PARAMETERS,
    )
    share.forEach((i, j) => {
      played[i] = own.played[j]!
      record.scenarios[`s${i}`] = own.record.scenarios[`s${j}`]!
    })
  }
  return { played, record }
}

interface Row {
  name: string
  rates: number[]
  after: number[]
}

function notPass(before: ReturnType<typeof tallyOf>, pr: ReturnType<typeof tallyOf>): boolean {
  const comparison = compareRuns(before, pr, { now })
  const { result } = decideGate({ comparison }, { failOn: 'worse', health: baselineHealth(before, pr) })
  return result.outcome === 'fail' || result.inconclusive === 'evidence-missing'
}

function simulate(row: Row, seed: number): { fixed: number; adaptive: number; attempts: number; sharded: number; shardedAttempts: number } {
  const random = createRng(seed)
  let fixed = 0
  let adaptive = 0
  let attempts = 0
  let sharded = 0
  let shardedAttempts = 0
  for (let n = 0; n < SIMULATIONS; n++) {
    const baselineVerdicts = row.rates.map((rate) => Array.from({ length: BASELINE_K }, () => outcome(random, rate)))
    const stream = row.after.map((rate) => Array.from({ length: MAX }, () => outcome(random, Math.max(0, rate))))
    const before = tallyOf(baselineVerdicts, BASELINE_K, null)
    if (notPass(before, tallyOf(stream, MAX, null))) fixed++
    const { played, record } = adaptivePlay(stream, baselineVerdicts)
    attempts += played.reduce((sum, list) => sum + list.length, 0)
    if (notPass(before, tallyOf(played, K, record))) adaptive++
    if (SHARDS > 1) {
      const split = shardedPlay(stream, baselineVerdicts)
      shardedAttempts += split.played.reduce((sum, list) => sum + list.length, 0)
      if (notPass(before, tallyOf(split.played, K, split.record))) sharded++
    }
  }
  return { fixed, adaptive, attempts, sharded, shardedAttempts }
}

const pct = (x: number) => `${(100 * x).toFixed(1)}%`
const cell = (hits: number) => {
  const { lower, upper } = wilsonInterval(hits, SIMULATIONS)
  return `${pct(hits / SIMULATIONS)} (${pct(lower)}–${pct(upper)})`
}

const SEVENTY = suite(0.7)
const change = (rates: number[], changes: Record<number, number>) => rates.map((rate, i) => changes[i] ?? rate)
const ROWS: { kind: 'A/A' | 'power'; row: Row }[] = [
  ...[0.5, 0.7, 0.9].map((share) => ({ kind: 'A/A' as const, row: { name: `A/A, ${share * 100}% stable`, rates: suite(share), after: suite(share) } })),
  { kind: 'power', row: { name: 'full collapse: one 1.0 → 0', rates: SEVENTY, after: change(SEVENTY, { 1: 0 }) } },
  { kind: 'power', row: { name: 'one 0.98 → 0.5', rates: SEVENTY, after: change(SEVENTY, { 14: 0.5 }) } },
  { kind: 'power', row: { name: 'one 0.9 → 0.6', rates: change(SEVENTY, { 15: 0.9 }), after: change(SEVENTY, { 15: 0.6 }) } },
  { kind: 'power', row: { name: 'three −0.3', rates: change(SEVENTY, { 15: 0.9 }), after: change(SEVENTY, { 0: 0.7, 1: 0.7, 15: 0.6 }) } },
  { kind: 'power', row: { name: 'all −0.05', rates: SEVENTY, after: SEVENTY.map((rate) => rate - 0.05) } },
]

const started = performance.now()
console.log(`${SIMULATIONS} simulations per row, S = ${S}, baseline ${BASELINE_K} attempts per scenario; adaptive: k = ${K}, up to ${MAX} (${ADAPTIVE_RULE}); fixed: ${MAX}. Noise on both sides: ${pct(NOISE.agentError)} agent errors, ${pct(NOISE.noVerdict)} without a verdict, ${pct(NOISE.userError)} user_error. 95% Wilson intervals.\n`)
const shardedHead = SHARDS > 1 ? ` not-pass, adaptive, ${SHARDS} shards | attempts, ${SHARDS} shards, of fixed ${MAX} |` : ''
console.log(`| Row | not-pass, adaptive | not-pass, fixed ${MAX} | difference | attempts, adaptive, of fixed ${MAX} |${shardedHead}`)
console.log(`| --- | --- | --- | --- | --- |${SHARDS > 1 ? ' --- | --- |' : ''}`)
ROWS.forEach(({ row }, r) => {
  if (!row.name.includes(ONLY)) return
  const result = simulate(row, 1000 * (r + 1))
  const difference = (100 * (result.adaptive - result.fixed)) / SIMULATIONS
  const share = result.attempts / (SIMULATIONS * S * MAX)
  const shardedCells = SHARDS > 1 ? ` ${cell(result.sharded)} | ${pct(result.shardedAttempts / (SIMULATIONS * S * MAX))} |` : ''
  console.log(`| ${row.name} | ${cell(result.adaptive)} | ${cell(result.fixed)} | ${difference >= 0 ? '+' : '−'}${Math.abs(difference).toFixed(1)} points | ${pct(share)} |${shardedCells}`)
})
console.log(`\n${((performance.now() - started) / 1000).toFixed(1)} s`)
