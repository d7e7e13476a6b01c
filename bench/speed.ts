// How often the speed test (src/verdict/speed.ts, through attempt-measures.ts, which also tests the
// agent's tokens and dollars) calls an unchanged agent slower, and how often it catches a real
// slow-down. Printed by `npm run bench:verdict` after the pass rates' tables; SPEED_SIMULATIONS=2000
// for more.
//
// Each simulation draws two runs of S = 20 scenarios × k attempts. A scenario's typical answer time
// is drawn once (log-uniform, median 0.5–5 s); each attempt's mean answer time varies around it
// (log-normal, σ = 0.35 on the log scale) and one attempt in twenty is three times slower (a retry, a
// cold cache): skewed, with a heavy right tail, as recorded times are. A/A: the same agent twice, so
// every "slower" is a false alarm — overall or in any one scenario, what `--fail-on-slower 0` fails
// on. The drift rows add what a CI machine does between runs: every time of a run × e^(σ·N(0,1)), σ =
// 0.05 (a quiet runner) or 0.3 (a localhost agent run twice on a busy machine moved its median up to
// 2.9 ×, issue 35); "with history" gives the comparison the default branch's last five runs, each
// run's median answer time drawn with the same drift (the typical scenario's median × its machine
// factor), as the trend's summaries carry them.
// A/B: every answer 1.5 × or 2 × slower (told slower overall; and failing --fail-on-slower 25); one
// scenario alone 2 × or 3 × slower (told for that scenario).
import type { AttemptDigest, RunTally } from '../src/records/tally/run-tally.ts'
import { wilsonInterval } from '../src/base/stats/intervals.ts'
import { seededRandom } from '../src/base/stats/permutation.ts'
import { slowerThan, speedChanges } from '../src/verdict/speed.ts'

const S = 20
const SPREAD = 0.35
const TAIL = { share: 0.05, factor: 3 }
const DRIFT = 0.05
const BUSY_DRIFT = 0.3
const HISTORY_RUNS = 5

function normal(random: () => number): number {
  return Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random())
}

/** A run as speedChanges reads it: per scenario, attempts with their answer time. */
function tally(medians: readonly number[], k: number, random: () => number, slowdown: (s: number) => number, machine: number): RunTally {
  const scenarios = new Map(
    medians.map((median, s) => {
      const attempts = Array.from({ length: k }, (): AttemptDigest => {
        const seconds = median * Math.exp(SPREAD * normal(random)) * (random() < TAIL.share ? TAIL.factor : 1) * slowdown(s) * machine
        return { verdict: 'passed', answers: 1, agentSeconds: seconds } as AttemptDigest
      })
      return [`s${s}`, { attempts }] as const
    }),
  )
  return { scenarios } as unknown as RunTally
}

/** What counts as caught; a number: failing --fail-on-slower at that percentage. */
type Caught = 'any slower' | 'overall slower' | 'scenario 0 slower' | number

function hits(simulations: number, seed: number, k: number, slowdown: (s: number) => number, what: Caught, drift = 0, historyRuns = 0): number {
  const random = seededRandom(seed)
  const ids = Array.from({ length: S }, (_, s) => `s${s}`)
  let count = 0
  for (let i = 0; i < simulations; i++) {
    const medians = ids.map(() => 0.5 * Math.exp(random() * Math.log(10)))
    const machine = () => Math.exp(drift * normal(random))
    const typical = [...medians].sort((a, b) => a - b)[Math.floor(S / 2)]!
    const history = Array.from({ length: historyRuns }, () => typical * machine())
    const speed = speedChanges(tally(medians, k, random, () => 1, machine()), tally(medians, k, random, slowdown, machine()), ids, { history })
    const overall = speed.overall.change === 'higher'
    const caught =
      what === 'any slower' ? overall || speed.scenarios.some((s) => s.change === 'higher')
      : what === 'overall slower' ? overall
      : typeof what === 'number' ? slowerThan(speed, what) !== null
      : speed.scenarios.some((s) => s.id === 's0' && s.change === 'higher')
    if (caught) count++
  }
  return count
}

const pct = (x: number) => `${(100 * x).toFixed(1)}%`
function cell(count: number, simulations: number): string {
  const { lower, upper } = wilsonInterval(count, simulations)
  return `${pct(count / simulations)} (${pct(lower)}–${pct(upper)})`
}

/** The speed test's table, as markdown lines; `simulations` per A/A cell, a third of it per power cell; `only`: the rows whose name holds it. */
export function speedTable(simulations: number, only = ''): string[] {
  const power = Math.max(100, Math.round(simulations / 3))
  const KS = [5, 10]
  const rows: { name: string; n: number; run: (k: number) => number }[] = [
    { name: 'A/A: false "slower" (overall or any scenario)', n: simulations, run: (k) => hits(simulations, 11 + k, k, () => 1, 'any slower') },
    { name: `A/A with ±${DRIFT * 100}% machine drift between runs: false "slower"`, n: simulations, run: (k) => hits(simulations, 23 + k, k, () => 1, 'any slower', DRIFT) },
    { name: `A/A with ±${DRIFT * 100}% drift, with history: false "slower"`, n: simulations, run: (k) => hits(simulations, 59 + k, k, () => 1, 'any slower', DRIFT, HISTORY_RUNS) },
    { name: `A/A with ±${BUSY_DRIFT * 100}% drift, with history: false "slower"`, n: simulations, run: (k) => hits(simulations, 61 + k, k, () => 1, 'any slower', BUSY_DRIFT, HISTORY_RUNS) },
    { name: `A/A with ±${BUSY_DRIFT * 100}% drift, with history: fails --fail-on-slower 50`, n: simulations, run: (k) => hits(simulations, 67 + k, k, () => 1, 50, BUSY_DRIFT, HISTORY_RUNS) },
    { name: `every answer 2 × slower, ±${DRIFT * 100}% drift, with history: told slower overall`, n: power, run: (k) => hits(power, 71 + k, k, () => 2, 'overall slower', DRIFT, HISTORY_RUNS) },
    { name: `one scenario 3 × slower, ±${DRIFT * 100}% drift, with history: told for it alone`, n: power, run: (k) => hits(power, 73 + k, k, (s) => (s === 0 ? 3 : 1), 'scenario 0 slower', DRIFT, HISTORY_RUNS) },
    { name: 'every answer 1.5 × slower: told slower overall', n: power, run: (k) => hits(power, 31 + k, k, () => 1.5, 'overall slower') },
    { name: 'every answer 1.5 × slower: fails --fail-on-slower 25', n: power, run: (k) => hits(power, 37 + k, k, () => 1.5, 25) },
    { name: 'every answer 2 × slower: told slower overall', n: power, run: (k) => hits(power, 41 + k, k, () => 2, 'overall slower') },
    { name: 'every answer 2 × slower: fails --fail-on-slower 50', n: power, run: (k) => hits(power, 43 + k, k, () => 2, 50) },
    { name: 'one scenario 2 × slower: told for it alone', n: power, run: (k) => hits(power, 47 + k, k, (s) => (s === 0 ? 2 : 1), 'scenario 0 slower') },
    { name: 'one scenario 3 × slower: told for it alone', n: power, run: (k) => hits(power, 53 + k, k, (s) => (s === 0 ? 3 : 1), 'scenario 0 slower') },
  ]
  const lines = [
    `Speed test (answer time per attempt), S = ${S} scenarios, log-normal times (σ = ${SPREAD}) with ${pct(TAIL.share)} of attempts ${TAIL.factor} × slower; ${simulations} simulations per A/A cell, ${power} per power cell; 95% Wilson intervals.`,
    '',
    `| | ${KS.map((k) => `k = ${k}`).join(' | ')} |`,
    `| --- | ${KS.map(() => '---').join(' | ')} |`,
  ]
  for (const row of rows.filter((r) => r.name.includes(only))) lines.push(`| ${row.name} | ${KS.map((k) => cell(row.run(k), row.n)).join(' | ')} |`)
  return lines
}
