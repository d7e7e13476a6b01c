// How often the comparison's verdict cries wolf, and how often it catches a real regression.
// Run: npm run bench:verdict   (figures go in README.md)
//
// A/A: the same agent against itself — every "Worse" is a false alarm. A/B: one scenario breaks.
// The suite follows notes/stats.md: 50% of scenarios pass at 0.98, 30% at 0.85, 20% at 0.55.
import { compareRuns } from '../src/compare/compare-runs.ts'
import type { Direction } from '../src/compare/comparison.ts'
import { syntheticRun } from '../test/fakes/synthetic-run.ts'
import { tallyRecord } from '../src/tally/run-tally.ts'

const TRIALS = Number(process.env.TRIALS ?? 1000)
const now = new Date('2026-11-29T12:00:00Z')

function suiteRate(index: number, scenarios: number): number {
  const position = index / scenarios
  return position < 0.5 ? 0.98 : position < 0.8 ? 0.85 : 0.55
}

function verdicts(scenarios: number, k: number, afterRate: (index: number) => number): Record<Direction, number> {
  const counts: Record<Direction, number> = { worse: 0, better: 0, 'within-noise': 0 }
  for (let trial = 0; trial < TRIALS; trial++) {
    const common = { scenarios, k, turns: 1, startedAt: now, agentErrorRate: 0, noVerdictRate: 0 }
    const before = syntheticRun({ ...common, seed: 2 * trial + 1, passProbability: (i) => suiteRate(i, scenarios) })
    const after = syntheticRun({ ...common, seed: 2 * trial + 2, passProbability: afterRate })
    counts[compareRuns(tallyRecord(before), tallyRecord(after), { now }).verdict]++
  }
  return counts
}

const rate = (n: number) => `${((100 * n) / TRIALS).toFixed(1)}%`
console.log(`${TRIALS} comparisons per row`)
console.log('case                                              scenarios  k  Worse   Better')
for (const [scenarios, k] of [
  [20, 3],
  [20, 5],
  [20, 10],
  [50, 5],
] as const) {
  const aa = verdicts(scenarios, k, (i) => suiteRate(i, scenarios))
  console.log(`A/A (no change)                                   ${String(scenarios).padStart(9)} ${String(k).padStart(2)}  ${rate(aa.worse).padStart(5)}  ${rate(aa.better).padStart(6)}`)
}
for (const [scenarios, k] of [
  [20, 5],
  [20, 10],
] as const) {
  const broken = verdicts(scenarios, k, (i) => (i === 0 ? 0.1 : suiteRate(i, scenarios)))
  console.log(`A/B one scenario 0.98 → 0.10                      ${String(scenarios).padStart(9)} ${String(k).padStart(2)}  ${rate(broken.worse).padStart(5)}  ${rate(broken.better).padStart(6)}`)
}
// The case: a scenario that always passed now always fails (5/5 → 0/5), among 20.
const always = (i: number, scenarios: number) => (i === 0 ? 1 : suiteRate(i, scenarios))
let caught = 0
for (let trial = 0; trial < TRIALS; trial++) {
  const common = { scenarios: 20, k: 5, turns: 1, startedAt: now, agentErrorRate: 0, noVerdictRate: 0 }
  const before = syntheticRun({ ...common, seed: 2 * trial + 1, passProbability: (i) => always(i, 20) })
  const after = syntheticRun({ ...common, seed: 2 * trial + 2, passProbability: (i) => (i === 0 ? 0 : suiteRate(i, 20)) })
  if (compareRuns(tallyRecord(before), tallyRecord(after), { now }).verdict === 'worse') caught++
}
console.log(`A/B one scenario 5/5 → 0/5                            20  5  ${rate(caught).padStart(5)}`)
