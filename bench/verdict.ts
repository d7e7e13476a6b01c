// How often the comparison's verdict cries wolf, and how often it catches a real regression.
// Run: npm run bench:verdict   (the table goes in README.md, "Statistics"); SIMULATIONS=20000 for more.
//
// Each simulation draws both runs' pass counts (S = 20 scenarios, k attempts each) and decides them
// with decide() — the function compareRuns decides with. Before the table, a sample of simulations is
// also built into whole run records and compared by compareRuns itself, and must get the same verdict.
//
// A/A: the same agent against itself, so every "Worse" is a false alarm. A/B: one scenario breaks,
// 0.98 → 0.10. Then the choice of the action's default `attempts`: one scenario that always passed
// never passes any more (1.0 → 0), among the realistic mix. Last, the speed test's A/A false "slower"
// and its power (bench/speed.ts).
import { compareRuns } from '../src/verdict/compare-runs.ts'
import { decide, type PairCounts } from '../src/verdict/decide.ts'
import { wilsonInterval } from '../src/base/stats/intervals.ts'
import { outcomes, run } from '../test/compare/run-builder.ts'
import { createRng } from '../test/fakes/synthetic-run.ts'
import { tallyRecord } from '../src/records/tally/run-tally.ts'
import { speedTable } from './speed.ts'

const SIMULATIONS = Number(process.env['SIMULATIONS'] ?? 5000)
/** Per A/A cell of the speed table (a third of it per power cell): each is a whole comparison of answer times. */
const SPEED_SIMULATIONS = Number(process.env['SPEED_SIMULATIONS'] ?? 1000)
const CHECKED_WITH_COMPARE_RUNS = Number(process.env['CHECKED'] ?? 300)
const S = 20

type Suite = { name: string; rates: number[] }
const spread = (count: number, low: number, high: number) => Array.from({ length: count }, (_, i) => (count === 1 ? (low + high) / 2 : low + ((high - low) * i) / (count - 1)))
const SUITES: Suite[] = [
  { name: 'all at 0.9', rates: Array.from({ length: S }, () => 0.9) },
  { name: 'uniform 0.5–1', rates: Array.from({ length: S }, (_, i) => 0.5 + (0.5 * (i + 0.5)) / S) },
  // 60% at 1.0, 25% at 0.8–0.95, 15% at 0.3–0.7.
  { name: 'realistic mix', rates: [...Array.from({ length: 12 }, () => 1), ...spread(5, 0.8, 0.95), ...spread(3, 0.3, 0.7)] },
  // The suite of docs/statistics.md's simulations: 50% at 0.98, 30% at 0.85, 20% at 0.55.
  { name: 'stats.md suite', rates: Array.from({ length: S }, (_, i) => (i < 10 ? 0.98 : i < 16 ? 0.85 : 0.55)) },
]

function binomial(random: () => number, n: number, p: number): number {
  let passed = 0
  for (let i = 0; i < n; i++) if (random() < p) passed++
  return passed
}

function draw(random: () => number, k: number, before: readonly number[], after: readonly number[]): PairCounts[] {
  return before.map((rate, i) => ({ before: { passed: binomial(random, k, rate), total: k }, after: { passed: binomial(random, k, after[i]!), total: k } }))
}

/** Share of simulations decided Worse. */
function worseShare(seed: number, k: number, before: readonly number[], after: readonly number[]): number {
  const random = createRng(seed)
  let worse = 0
  for (let i = 0; i < SIMULATIONS; i++) if (decide(draw(random, k, before, after)).verdict === 'worse') worse++
  return worse
}

function broken(rates: readonly number[], from: number, to: number): { before: number[]; after: number[] } {
  return { before: [from, ...rates.slice(1)], after: [to, ...rates.slice(1)] }
}

/** compareRuns on whole run records must reach the verdict decide() reaches on their counts. */
function checkAgainstCompareRuns(): void {
  const random = createRng(7)
  const now = new Date('2026-03-02T00:00:00Z')
  for (let i = 0; i < CHECKED_WITH_COMPARE_RUNS; i++) {
    const suite = SUITES[i % SUITES.length]!
    const k = [3, 5, 10][i % 3]!
    const { before, after } = i % 2 === 0 ? { before: suite.rates, after: suite.rates } : broken(suite.rates, 0.98, 0.1)
    const counts = draw(random, k, before, after)
    const layout = (side: 'before' | 'after') => Object.fromEntries(counts.map((c, s) => [`s${s}`, outcomes(c[side].passed, k)]))
    const settings = { k, parallel: 1, turnTimeoutSeconds: 60, scenarioGlobs: [], tags: [], smoke: false, shard: null }
    const full = compareRuns(tallyRecord(run(layout('before'), { manifest: { settings } })), tallyRecord(run(layout('after'), { manifest: { settings } })), { now })
    const lean = decide(counts)
    if (full.verdict !== lean.verdict) throw new Error(`compareRuns says ${full.verdict}, decide() ${lean.verdict}: ${JSON.stringify(counts)}`)
  }
}

const cell = (hits: number) => {
  const { lower, upper } = wilsonInterval(hits, SIMULATIONS)
  return `${pct(hits / SIMULATIONS)} (${pct(lower)}–${pct(upper)})`
}
const pct = (x: number) => `${(100 * x).toFixed(1)}%`

const started = performance.now()
checkAgainstCompareRuns()
console.log(`${CHECKED_WITH_COMPARE_RUNS} simulations checked through compareRuns: same verdicts as decide().`)
console.log(`${SIMULATIONS} simulations per cell, S = ${S}; 95% Wilson intervals.\n`)

const KS = [3, 5, 10]
console.log(`| Suite | ${KS.map((k) => `A/A false Worse, k = ${k}`).join(' | ')} | ${KS.map((k) => `one 0.98 → 0.10 caught, k = ${k}`).join(' | ')} |`)
console.log(`| --- | ${KS.map(() => '---').join(' | ')} | ${KS.map(() => '---').join(' | ')} |`)
SUITES.forEach((suite, s) => {
  const aa = KS.map((k) => cell(worseShare(1000 * s + k, k, suite.rates, suite.rates)))
  const ab = KS.map((k) => {
    const { before, after } = broken(suite.rates, 0.98, 0.1)
    return cell(worseShare(1000 * s + 100 + k, k, before, after))
  })
  console.log(`| ${suite.name} | ${aa.join(' | ')} | ${ab.join(' | ')} |`)
})

const mix = SUITES[2]!.rates
const DEFAULT_KS = [1, 2, 3, 4, 5, 6]
console.log(`\nOne scenario that always passed now never passes (1.0 → 0), realistic mix:`)
console.log(`| k | ${DEFAULT_KS.join(' | ')} |`)
console.log(`| --- | ${DEFAULT_KS.map(() => '---').join(' | ')} |`)
const always = broken(mix, 1, 0)
console.log(`| caught | ${DEFAULT_KS.map((k) => cell(worseShare(5000 + k, k, always.before, always.after))).join(' | ')} |`)
console.log(`\n${speedTable(SPEED_SIMULATIONS).join('\n')}`)
console.log(`\n${((performance.now() - started) / 1000).toFixed(1)} s`)
