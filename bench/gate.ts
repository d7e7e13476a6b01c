// Whether anything a pull request's run lacks can still turn a real break into a pass (issues 21, 38).
// Run: npm run bench:gate   (the tables go in docs/statistics.md); SIMULATIONS=5000 for more, ONLY=text for some rows.
//
// Every simulation builds both runs as whole run records (run.json's scenarios, attempts.jsonl's
// verdicts, judge votes) and decides them through compareRuns, baselineHealth and decideGate — the code
// the CLI and the action run — with `fail-on: worse` and the default fail-on-inconclusive. (The action
// first walks back past unhealthy baselines; here there is only the one, as when none is healthy.) Each
// route breaks one scenario for real (it always passed; it now never does) and hides the break one way,
// and nothing else. Every route runs twice: noise-free, and under the noise of real runs on both sides
// (issue 38: 2% agent errors, 5% without a verdict, 5% relabelled user_error, at random). The baseline
// plays the action's baseline-attempts (BASELINE_K, default 10) where that is more than the pull
// request's k, as the action's push to the default branch does. Each A/A row plays the same agent twice
// under that noise, so every not-pass is a false alarm.
import { compareRuns } from '../src/verdict/compare-runs.ts'
import { decideGate } from '../src/verdict/decide-gate.ts'
import { baselineHealth } from '../src/verdict/baseline-health.ts'
import { wilsonInterval } from '../src/base/stats/intervals.ts'
import { detectableDrop } from '../src/base/stats/detectable.ts'
import { OVERALL_Z } from '../src/verdict/decide.ts'
import { ACTION_DEFAULT_BASELINE_ATTEMPTS } from '../src/entry/action/inputs.ts'
import type { Attempt, RunManifest, Verdict } from '../src/records/journal/records.ts'
import type { Scenario } from '../src/records/scenario/scenario.ts'
import { tallyRecord } from '../src/records/tally/run-tally.ts'
import { attempt, manifest, scenario } from '../test/compare/run-builder.ts'
import { createRng } from '../test/fakes/synthetic-run.ts'

const SIMULATIONS = Number(process.env['SIMULATIONS'] ?? 1000)
/** ONLY=baseline: only the rows whose name holds it (a quick look at one route; the seeds stay the same). */
const ONLY = process.env['ONLY'] ?? ''
/** The baseline's attempts per scenario: the action's baseline-attempts default; BASELINE_K=0 plays the baseline at the PR's k. */
const BASELINE_K = Number(process.env['BASELINE_K'] ?? ACTION_DEFAULT_BASELINE_ATTEMPTS)
const KS = [5, 10]
/** The noise of real runs (issue 38), on every attempt of both runs where a route or row has it. */
const NOISE = { agentError: 0.02, noVerdict: 0.05, userError: 0.05 }
const now = new Date('2026-03-02T00:00:00Z')

const S = 20
const spread = (count: number, low: number, high: number) => Array.from({ length: count }, (_, i) => low + ((high - low) * i) / Math.max(1, count - 1))
/** 60% always pass, 25% at 0.8–0.95, 15% at 0.3–0.7, for a suite of `n` scenarios (n = 5: 3, 1, 1). */
const realistic = (n: number) => {
  const flaky = Math.max(1, Math.round(n * 0.15))
  const good = Math.max(1, Math.round(n * 0.25))
  return [...Array.from({ length: n - flaky - good }, () => 1), ...spread(good, 0.8, 0.95), ...spread(flaky, 0.3, 0.7)]
}
const REALISTIC = realistic(S)
const FLAKY = [1, ...Array.from({ length: S - 1 }, () => 0.5)]
const SUITES: { name: string; rates: number[]; ks: number[] }[] = [
  { name: 'all at 0.9', rates: Array.from({ length: S }, () => 0.9), ks: KS },
  { name: 'uniform 0.5–1', rates: Array.from({ length: S }, (_, i) => 0.5 + (0.5 * (i + 0.5)) / S), ks: KS },
  { name: 'stats.md suite', rates: Array.from({ length: S }, (_, i) => (i < 10 ? 0.98 : i < 16 ? 0.85 : 0.55)), ks: KS },
  { name: 'one sure among 19 at 0.5', rates: FLAKY, ks: KS },
  ...[5, 20, 50].map((n) => ({ name: `realistic mix, S = ${n}`, rates: realistic(n), ks: [3, 5, 10] })),
]

type Random = () => number
/** What a route changes: the PR's scenarios, the outcome of the broken scenario's attempts, the manifests. */
interface Route {
  name: string
  rates: number[]
  /** The PR's rate per scenario; default: the broken first scenario at 0. */
  after?: number[]
  /** The PR's attempt of the first scenario, from its true outcome. */
  broken?: (random: Random, passed: boolean) => Partial<Attempt> & { verdict: Verdict }
  /** The baseline's attempt of any scenario. */
  baselineAttempt?: (random: Random, passed: boolean) => Partial<Attempt> & { verdict: Verdict }
  /** Judge votes (m samples, each wrong with this chance) on every judged attempt of both runs. */
  votes?: { samples: number; error: number }
  /** The PR's copy of each baseline scenario, in order; null: gone. */
  prScenarios?: (scenarios: Scenario[]) => (Scenario | null)[]
  prManifest?: Partial<RunManifest>
  /** Background noise (NOISE) on every attempt of both runs. */
  noise?: boolean
}

const CLAIM = 'The agent helped'
function voted(random: Random, passed: boolean, votes: Route['votes']): Partial<Attempt> & { verdict: Verdict } {
  if (!votes) return { verdict: passed ? 'passed' : 'failed' }
  const cast = Array.from({ length: votes.samples }, () => (random() < votes.error ? !passed : passed))
  const pass = cast.filter(Boolean).length * 2 > votes.samples
  return { verdict: pass ? 'passed' : 'failed', claims: [{ claim: CLAIM, pass, reason: 'r', votes: cast }] }
}

function noisy(roll: number): (Partial<Attempt> & { verdict: Verdict }) | null {
  if (roll < NOISE.agentError) return { verdict: 'agent_error' }
  if (roll < NOISE.agentError + NOISE.noVerdict) return { verdict: 'no_verdict' }
  if (roll < NOISE.agentError + NOISE.noVerdict + NOISE.userError) return { verdict: 'user_error' }
  return null
}

function side(random: Random, k: number, rates: readonly number[], route: Route, pr: boolean) {
  const scenarios = rates.map((_, i) => scenario(`s${i}`))
  const attempts: Attempt[] = []
  rates.forEach((rate, i) => {
    for (let n = 1; n <= k; n++) {
      const passed = random() < rate
      const roll = random()
      let shape = voted(random, passed, route.votes)
      if (pr && i === 0 && route.broken) shape = route.broken(random, passed)
      else if (!pr && route.baselineAttempt) shape = route.baselineAttempt(random, passed)
      shape = (route.noise ? noisy(roll) : null) ?? shape
      attempts.push(attempt(`s${i}`, n, shape.verdict, shape))
    }
  })
  const settings = { k, parallel: 1, turnTimeoutSeconds: 60, scenarioGlobs: [], tags: [], smoke: false, shard: null, review: true }
  const mapped = pr && route.prScenarios ? route.prScenarios(scenarios) : scenarios
  const listed = mapped.filter((s): s is Scenario => s !== null)
  const renamed = new Map(scenarios.map((s, i) => [s.id, mapped[i]?.id ?? null]))
  const kept = attempts.flatMap((a) => (renamed.get(a.scenario) ? [{ ...a, scenario: renamed.get(a.scenario)! }] : []))
  return tallyRecord({ manifest: manifest({ settings, scenarios: listed, ...(pr ? route.prManifest : {}) }), attempts: pr ? kept : attempts })
}

interface Counted {
  fail: number
  inconclusive: number
  pass: number
  /** Of the inconclusive: too little to tell (a neutral check that never fails the step). */
  tooLittle: number
}

function simulate(route: Route, k: number, seed: number): Counted {
  const random = createRng(seed)
  const counts = { fail: 0, inconclusive: 0, pass: 0, tooLittle: 0 }
  const after = route.after ?? [0, ...route.rates.slice(1)]
  const baselineK = Math.max(k, BASELINE_K)
  for (let i = 0; i < SIMULATIONS; i++) {
    const before = side(random, baselineK, route.rates, route, false)
    const pr = side(random, k, after, route, true)
    const comparison = compareRuns(before, pr, { now })
    // As the action, publish and compare --fail-on worse decide: a pass over an unhealthy baseline is not a pass.
    const { result } = decideGate({ comparison }, { failOn: 'worse', health: baselineHealth(before, pr) })
    counts[result.outcome]++
    if (result.inconclusive === 'too-little-to-tell') counts.tooLittle++
  }
  return counts
}

const edit = (change: (s: Scenario) => Scenario) => (scenarios: Scenario[]) => scenarios.map((s, i) => (i === 0 ? change(s) : s))
const ROUTES: Route[] = [
  { name: 'laundered: 70% of the break relabelled user_error', rates: REALISTIC, broken: (random) => ({ verdict: random() < 0.7 ? 'user_error' : 'failed' }) },
  { name: 'laundered: all of the break relabelled user_error', rates: REALISTIC, broken: () => ({ verdict: 'user_error' }) },
  { name: 'blind: the judge refuses 75% of the broken dialogues', rates: REALISTIC, broken: (random) => ({ verdict: random() < 0.75 ? 'no_verdict' : 'failed' }) },
  { name: 'blind: the judge refuses every broken dialogue', rates: REALISTIC, broken: () => ({ verdict: 'no_verdict' }) },
  { name: 'baseline errors: 30% agent errors in the baseline', rates: REALISTIC, baselineAttempt: (random, passed) => ({ verdict: random() < 0.3 ? 'agent_error' : passed ? 'passed' : 'failed' }) },
  { name: 'renamed', rates: REALISTIC, prScenarios: edit((s) => ({ ...s, id: `${s.id}-new` })) },
  { name: 'reworded claim', rates: REALISTIC, prScenarios: edit((s) => ({ ...s, judge: ['The agent helped, more or less'] })) },
  { name: 'tag only', rates: REALISTIC, prScenarios: edit((s) => ({ ...s, tags: ['new-tag'] })) },
  { name: 'removed (no retired: entry)', rates: REALISTIC, prScenarios: (scenarios) => scenarios.map((s, i) => (i === 0 ? null : s)) },
  { name: 'judge-unstable: m = 3 both sides, 2% vote error', rates: REALISTIC, votes: { samples: 3, error: 0.02 } },
  { name: 'PR-side judge change', rates: REALISTIC, prManifest: { models: { user: 'user-model', judge: 'another-judge', fingerprint: 'models-sha', prices: {} } } },
  { name: 'one collapse among 19 at 0.5', rates: FLAKY },
  { name: 'baseline errors: 10% agent errors in the baseline', rates: REALISTIC, baselineAttempt: (random, passed) => ({ verdict: random() < 0.1 ? 'agent_error' : passed ? 'passed' : 'failed' }) },
  { name: 'a plain break', rates: REALISTIC },
]

const pct = (x: number) => `${(100 * x).toFixed(1)}%`
const cell = (hits: number) => {
  const { lower, upper } = wilsonInterval(hits, SIMULATIONS)
  return `${pct(hits / SIMULATIONS)} (${pct(lower)}–${pct(upper)})`
}
const split = (c: Counted) => `${pct(c.fail / SIMULATIONS)} / ${pct(c.inconclusive / SIMULATIONS)}`

const started = performance.now()
const baselineWords = BASELINE_K > 0 ? `the baseline at max(k, ${BASELINE_K}) attempts` : 'the baseline at the same k'
console.log(`${SIMULATIONS} simulations per cell, S = ${S}, ${baselineWords}; 95% Wilson intervals. Noise: ${pct(NOISE.agentError)} agent errors, ${pct(NOISE.noVerdict)} without a verdict, ${pct(NOISE.userError)} user_error on both sides.\n`)
console.log(`| Route (a real break) | k | escapes (pass), noise-free | escapes (pass), with noise | with noise: fail / inconclusive |`)
console.log(`| --- | --- | --- | --- | --- |`)
ROUTES.forEach((route, r) => {
  if (!route.name.includes(ONLY)) return
  for (const k of KS) {
    const clean = simulate(route, k, 10_000 * r + k)
    const noisyRun = simulate({ ...route, noise: true }, k, 10_000 * r + k + 500)
    console.log(`| ${route.name} | ${k} | ${cell(clean.pass)} | ${cell(noisyRun.pass)} | ${split(noisyRun)} |`)
  }
})
// A false alarm fails the step: a fail, or evidence missing (fails by default). Too little to tell (k ≤ 3) is a
// neutral check that says the k that would tell, never a failure: shown apart.
console.log(`\n| A/A (the same agent twice, with noise) | k | fail | evidence missing | too little to tell (neutral) | pass | false alarms (fail + evidence missing) |`)
console.log(`| --- | --- | --- | --- | --- | --- | --- |`)
SUITES.forEach((suite, s) => {
  if (!suite.name.includes(ONLY)) return
  for (const k of suite.ks) {
    const c = simulate({ name: suite.name, rates: suite.rates, after: suite.rates, noise: true }, k, 500_000 + 1000 * s + k)
    const missing = c.inconclusive - c.tooLittle
    console.log(`| ${suite.name} | ${k} | ${pct(c.fail / SIMULATIONS)} | ${pct(missing / SIMULATIONS)} | ${pct(c.tooLittle / SIMULATIONS)} | ${pct(c.pass / SIMULATIONS)} | ${cell(c.fail + missing)} |`)
  }
})

// The detectable-drop claim (sensitivity): every scenario of a 0.9 suite drops by what the comparison
// says it detects with 80% power; how often does the gate catch it?
if ('detectable'.includes(ONLY) || ONLY === '') {
  console.log(`\n| Detectable-drop claim, all 20 at 0.9, with noise | k | claimed drop | caught |`)
  console.log(`| --- | --- | --- | --- |`)
  for (const k of KS) {
    const drop = detectableDrop(0.9, S * k * (1 - NOISE.agentError - NOISE.noVerdict - NOISE.userError), OVERALL_Z)!
    const rates = Array.from({ length: S }, () => 0.9)
    const c = simulate({ name: 'drop', rates, after: rates.map((r) => r - drop), noise: true }, k, 900_000 + k)
    console.log(`| | ${k} | ${Math.round(drop * 100)} points | ${cell(c.fail + c.inconclusive)} |`)
  }
}
console.log(`\n${((performance.now() - started) / 1000).toFixed(1)} s`)
