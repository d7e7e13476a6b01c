// How often the speed test (src/verdict/speed.ts) calls an unchanged agent slower, and how often it
// catches a real slow-down. Run: node --import tsx bench/speed.ts   (SIMULATIONS=1000 for more).
//
// Each simulation draws two runs of S = 20 scenarios × k attempts. A scenario's typical answer time
// is drawn once (lognormal, median 0.5–5 s); each attempt's mean answer time varies around it
// (lognormal, σ = 0.35 on the log scale) and one attempt in twenty is three times slower (a retry, a
// cold cache): skewed, as recorded times are. A/A: the same agent twice, every "slower" is a false
// alarm (overall, or any scenario: what --fail-on-slower 0 would fail on). A/B: every answer 1.5 × or
// 2 × slower; then one scenario alone 3 × slower.
import type { AttemptDigest, RunTally } from '../src/records/tally/run-tally.ts'
import { seededRandom } from '../src/base/stats/permutation.ts'
import { speedChanges } from '../src/verdict/speed.ts'

const SIMULATIONS = Number(process.env['SIMULATIONS'] ?? 200)
const S = 20

function normal(random: () => number): number {
  return Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random())
}

/** A run as speedChanges reads it: per scenario, attempts with their answer time. */
function tally(medians: readonly number[], k: number, random: () => number, slowdown: (s: number) => number): RunTally {
  const scenarios = new Map(
    medians.map((median, s) => {
      const attempts = Array.from({ length: k }, (): AttemptDigest => {
        const seconds = median * Math.exp(0.35 * normal(random)) * (random() < 0.05 ? 3 : 1) * slowdown(s)
        return { verdict: 'passed', answers: 1, agentSeconds: seconds } as AttemptDigest
      })
      return [`s${s}`, { attempts }] as const
    }),
  )
  return { scenarios } as unknown as RunTally
}

function rate(k: number, slowdown: (s: number) => number, what: 'any' | 'overall' | 'scenario 0'): number {
  const random = seededRandom(k * 1000 + 17)
  const ids = Array.from({ length: S }, (_, s) => `s${s}`)
  let hits = 0
  for (let i = 0; i < SIMULATIONS; i++) {
    const medians = ids.map(() => 0.5 * Math.exp(random() * Math.log(10)))
    const speed = speedChanges(tally(medians, k, random, () => 1), tally(medians, k, random, slowdown), ids)
    const overall = speed.overall.change === 'higher'
    const scenario0 = speed.scenarios.some((s) => s.id === 's0' && s.change === 'higher')
    const any = overall || speed.scenarios.some((s) => s.change === 'higher')
    if (what === 'any' ? any : what === 'overall' ? overall : scenario0) hits++
  }
  return hits / SIMULATIONS
}

const pct = (x: number) => `${(x * 100).toFixed(1)}%`
console.log(`Speed test, S = ${S} scenarios, ${SIMULATIONS} simulations per cell\n`)
console.log('| k | A/A: false "slower" (any) | all 1.5 × slower: caught | all 2 × slower: caught | one scenario 3 × slower: caught alone |')
console.log('| - | - | - | - | - |')
for (const k of [5, 10]) {
  const started = performance.now()
  const row = [rate(k, () => 1, 'any'), rate(k, () => 1.5, 'overall'), rate(k, () => 2, 'overall'), rate(k, (s) => (s === 0 ? 3 : 1), 'scenario 0')]
  console.log(`| ${k} | ${row.map(pct).join(' | ')} |`, `(${((performance.now() - started) / 1000).toFixed(0)} s)`)
}
