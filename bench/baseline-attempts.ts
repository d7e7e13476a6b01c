// The baseline paid once per merge (issue 39 item 2): what planning the default branch's run from its
// history (src/records/tally/attempts-by-history.ts) costs the pull request's gate, and what it saves.
// Run: npm run bench:baseline   (the table goes in docs/statistics.md, "Attempts from the trend");
// SIMULATIONS=1000 for the docs' figures, ONLY=text for some rows; STABLE=6 FLAKY=1.2 STABLE_RUNS=5
// FLAKY_RUNS=2 to try other numbers than HISTORY_RULE_PARAMETERS.
//
// Each simulation draws the default branch's history — HISTORY (10) runs, each planned by the rule
// from the runs before it, as the action plays them once the rule is on — from the same per-scenario
// rates, then the baseline run twice from the same stream of outcomes: fixed at BASELINE_K (10)
// attempts per scenario, and as the rule plans it from that history. A pull request's run of PR_K (5)
// attempts is compared with each through compareRuns, baselineHealth and decideGate with `fail-on:
// worse`, the code the CLI and the action run (the planned baseline's run.json carries each scenario's
// planned attempts, as the run writes it). Noise on every attempt of every run (issue 38): 2% agent
// errors, 5% without a verdict, 5% relabelled user_error. A not-pass (fail, or evidence missing) of an
// unchanged agent is a false alarm; of a changed one, a catch.
import { compareRuns } from '../src/verdict/compare-runs.ts'
import { decideGate } from '../src/verdict/decide-gate.ts'
import { baselineHealth } from '../src/verdict/baseline-health.ts'
import { wilsonInterval } from '../src/base/stats/intervals.ts'
import { HISTORY_RULE_PARAMETERS, planOf, type HistoryRuleParameters } from '../src/records/tally/attempts-by-history.ts'
import type { AdaptiveRecord } from '../src/records/journal/adaptive-record.ts'
import type { Attempt, Verdict } from '../src/records/journal/records.ts'
import { tallyRecord } from '../src/records/tally/run-tally.ts'
import { attempt, manifest } from '../test/compare/run-builder.ts'
import { createRng } from '../test/fakes/synthetic-run.ts'
import { NOISE, outcome, S, scenarios, settings, suite, type Random } from './noisy-suite.ts'

const SIMULATIONS = Number(process.env['SIMULATIONS'] ?? 200)
const ONLY = process.env['ONLY'] ?? ''
const PR_K = 5
const BASELINE_K = 10
const HISTORY = 10
/** Outcomes drawn per scenario for the baseline, whatever the rule plans, so the fixed baseline draws the same ones for every choice of numbers. */
const STREAM = 40
const envNumber = (name: string, fallback: number) => (process.env[name] ? Number(process.env[name]) : fallback)
const RULE: HistoryRuleParameters = {
  stableRuns: envNumber('STABLE_RUNS', HISTORY_RULE_PARAMETERS.stableRuns),
  stableAttempts: envNumber('STABLE', HISTORY_RULE_PARAMETERS.stableAttempts),
  flakyRuns: envNumber('FLAKY_RUNS', HISTORY_RULE_PARAMETERS.flakyRuns),
  window: HISTORY_RULE_PARAMETERS.window,
  flakyFactor: envNumber('FLAKY', HISTORY_RULE_PARAMETERS.flakyFactor),
}
const NUMBERS = { plain: BASELINE_K, floor: PR_K }
const now = new Date('2026-03-02T00:00:00Z')


function tallyOf(verdicts: Verdict[][], k: number, planned: AdaptiveRecord | null) {
  const attempts: Attempt[] = verdicts.flatMap((list, i) => list.map((verdict, n) => attempt(`s${i}`, n + 1, verdict)))
  return tallyRecord({ manifest: manifest({ settings: settings(k), scenarios, ...(planned ? { adaptive: planned } : {}) }), attempts })
}

/** A scenario's decided attempts in one run, as the run summary counts them (judged: passed or failed). */
function decided(verdicts: readonly Verdict[]): { passed: number; judged: number } {
  return { passed: verdicts.filter((v) => v === 'passed').length, judged: verdicts.filter((v) => v === 'passed' || v === 'failed').length }
}

/** The default branch's history of one scenario, newest first: each run planned by the rule from the runs before it. */
function historyOf(random: Random, rate: number): { passed: number; judged: number }[] {
  const points: { passed: number; judged: number }[] = []
  for (let run = 0; run < HISTORY; run++) {
    const { attempts } = planOf(points, NUMBERS, RULE)
    points.unshift(decided(Array.from({ length: attempts }, () => outcome(random, rate))))
  }
  return points
}

function notPass(before: ReturnType<typeof tallyOf>, pr: ReturnType<typeof tallyOf>): boolean {
  const comparison = compareRuns(before, pr, { now })
  const { result } = decideGate({ comparison }, { failOn: 'worse', health: baselineHealth(before, pr) })
  return result.outcome === 'fail' || result.inconclusive === 'evidence-missing'
}

interface Row {
  name: string
  rates: number[]
  after: number[]
}

function simulate(row: Row, seed: number): { fixed: number; trend: number; attempts: number; reasons: Record<string, number> } {
  // The history on a stream of its own, so both baselines and the pull request draw the same outcomes whatever the rule's numbers.
  const past = createRng(seed + 1)
  const random = createRng(seed)
  let fixed = 0
  let trend = 0
  let attempts = 0
  const reasons: Record<string, number> = { stable: 0, flaky: 0, plain: 0 }
  for (let n = 0; n < SIMULATIONS; n++) {
    const plans = row.rates.map((rate) => planOf(historyOf(past, rate), NUMBERS, RULE))
        const stream = row.rates.map((rate) => Array.from({ length: STREAM }, () => outcome(random, rate)))
    const pr = tallyOf(row.after.map((rate) => Array.from({ length: PR_K }, () => outcome(random, rate))), PR_K, null)
    if (notPass(tallyOf(stream.map((list) => list.slice(0, BASELINE_K)), BASELINE_K, null), pr)) fixed++
    const record: AdaptiveRecord = { scenarios: Object.fromEntries(plans.map((plan, i) => [`s${i}`, { planned: plan.attempts, stopped: null }])) }
    const planned = stream.map((list, i) => list.slice(0, plans[i]!.attempts))
    attempts += planned.reduce((sum, list) => sum + list.length, 0)
    for (const plan of plans) reasons[plan.reason]!++
    if (notPass(tallyOf(planned, BASELINE_K, record), pr)) trend++
  }
  return { fixed, trend, attempts, reasons }
}

const pct = (x: number) => `${(100 * x).toFixed(1)}%`
const cell = (hits: number) => {
  const { lower, upper } = wilsonInterval(hits, SIMULATIONS)
  return `${pct(hits / SIMULATIONS)} (${pct(lower)}–${pct(upper)})`
}

const SEVENTY = suite(0.7)
const change = (rates: number[], changes: Record<number, number>) => rates.map((rate, i) => changes[i] ?? rate)
const ROWS: Row[] = [
  ...[0.5, 0.7, 0.9].map((share) => ({ name: `A/A, ${share * 100}% stable`, rates: suite(share), after: suite(share) })),
  { name: 'full collapse: one 1.0 → 0', rates: SEVENTY, after: change(SEVENTY, { 1: 0 }) },
  { name: 'one 0.98 → 0.5', rates: SEVENTY, after: change(SEVENTY, { 14: 0.5 }) },
  { name: 'one 0.9 → 0.6', rates: change(SEVENTY, { 15: 0.9 }), after: change(SEVENTY, { 15: 0.6 }) },
]

const started = performance.now()
console.log(
  `${SIMULATIONS} simulations per row, S = ${S}, pull request k = ${PR_K}; baseline fixed at ${BASELINE_K}, or planned from a history of ${HISTORY} runs ` +
    `(stable: no decided attempt failed in the newest ${RULE.stableRuns} runs → ${RULE.stableAttempts}; flaky: failed in ${RULE.flakyRuns} of the newest ${RULE.window} → ${Math.ceil(BASELINE_K * RULE.flakyFactor)}; else ${BASELINE_K}). ` +
    `Noise on both sides: ${pct(NOISE.agentError)} agent errors, ${pct(NOISE.noVerdict)} without a verdict, ${pct(NOISE.userError)} user_error. 95% Wilson intervals.\n`,
)
console.log(`| Row | not-pass, from the trend | not-pass, fixed ${BASELINE_K} | difference | baseline attempts per merge, from the trend (fixed: ${S * BASELINE_K}) | scenarios stable / flaky / plain |`)
console.log(`| --- | --- | --- | --- | --- | --- |`)
ROWS.forEach((row, r) => {
  if (!row.name.includes(ONLY)) return
  const result = simulate(row, 1000 * (r + 1))
  const difference = (100 * (result.trend - result.fixed)) / SIMULATIONS
  const perMerge = result.attempts / SIMULATIONS
  const share = (reason: string) => (result.reasons[reason]! / SIMULATIONS).toFixed(1)
  console.log(
    `| ${row.name} | ${cell(result.trend)} | ${cell(result.fixed)} | ${difference >= 0 ? '+' : '−'}${Math.abs(difference).toFixed(1)} points | ${perMerge.toFixed(0)} (${pct(perMerge / (S * BASELINE_K))}) | ${share('stable')} / ${share('flaky')} / ${share('plain')} |`,
  )
})
console.log(`\n${((performance.now() - started) / 1000).toFixed(1)} s`)
