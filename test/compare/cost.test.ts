import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import type { Attempt, ModelUse } from '../../src/records/journal/records.ts'
import { tallyRecord, type RunRecord } from '../../src/records/tally/run-tally.ts'
import { seededRandom } from '../../src/base/stats/permutation.ts'
import { compareRuns } from '../../src/verdict/compare-runs.ts'
import { costlierThan } from '../../src/verdict/cost.ts'
import { decideGate } from '../../src/verdict/decide-gate.ts'
import { comparisonMarkdown } from '../../src/views/markdown/compare-markdown.ts'
import { speedCard } from '../../src/views/compare/speed-wording.ts'
import { attempt, manifest, scenario } from './run-builder.ts'

/**
 * The agent's tokens and the dollars per attempt in a comparison, tested as answer times are: one
 * value per attempt, a permutation test stratified by scenario on their logs, scenarios alone with
 * Tarone's correction, told only beyond noise and past ×1.1, and gated by --fail-on-costlier.
 */
const now = new Date('2026-03-02T00:00:00Z')

interface Spend {
  tokens: number | null
  /** The agent's own dollars (its tokens at its price in convy.yml). */
  dollars: number | null
  /** convy-ci's judge's dollars for the attempt: the harness's, never the agent's. Default $0.001. */
  judgeDollars?: number
  cached?: number
}

/** Scenarios × k passing attempts, each spending `spend(scenario index, attempt)`. */
function run(scenarios: number, k: number, spend: (s: number, n: number) => Spend, verdict: (n: number) => Attempt['verdict'] = () => 'passed'): RunRecord {
  const ids = Array.from({ length: scenarios }, (_, i) => `s${i}`)
  const attempts = ids.flatMap((id, s) =>
    Array.from({ length: k }, (_, i): Attempt => {
      const { tokens, dollars, judgeDollars, cached } = spend(s, i + 1)
      const judge: ModelUse = { model: 'judge-model', calls: 1, tries: 1, tokens: { input: 100, output: 10 }, seconds: 1, costUsd: judgeDollars ?? 0.001, ...(cached ? { cachedCalls: cached } : {}) }
      const agentTokens = tokens === null ? null : { input: Math.round(tokens * 0.8), output: Math.round(tokens * 0.2) }
      return { ...attempt(id, i + 1, verdict(i + 1)), agentTokens, ...(dollars === null ? {} : { agentCostUsd: dollars }), models: { user: null, judge } }
    }),
  )
  return { manifest: manifest({ scenarios: ids.map((id) => scenario(id)) }), attempts }
}

const compare = (before: RunRecord, after: RunRecord) => compareRuns(tallyRecord(before), tallyRecord(after), { now })
const noisy = (seed: number) => {
  const random = seededRandom(seed)
  return () => Math.exp((random() - 0.5) * 0.4)
}

describe('tokens and dollars in a comparison', () => {
  test('one scenario spending three times the tokens in every attempt is told alone, with its ratio and exact p, and gates past 50%', () => {
    const noise = noisy(5)
    const values = Array.from({ length: 50 }, () => 1000 * noise())
    // Three scenarios: at k = 5 one can register alone (p = 1/252 under 0.0125/3, Tarone).
    const before = run(3, 5, (s, n) => ({ tokens: values[s * 5 + n - 1]!, dollars: 0.01 }))
    const after = run(3, 5, (s, n) => ({ tokens: values[25 + s * 5 + n - 1]! * (s === 2 ? 3 : 1), dollars: 0.01 }))
    const c = compare(before, after)
    assert.deepEqual(c.cost.tokens.scenarios.map((s) => [s.id, s.change]), [['s2', 'higher']])
    assert.equal(c.cost.tokens.scenarios[0]!.pHigher, 1 / 252)
    assert.equal(c.cost.dollars.overall.change, null, 'the same dollars every attempt: no change')
    assert.deepEqual(c.cost.dollars.scenarios, [])
    const gated = costlierThan(c.cost, 50)
    assert.deepEqual(gated, { reason: `The agent's tokens per attempt rose past 50% (fail-on-costlier): s2 ${c.cost.tokens.scenarios[0]!.ratio!.toFixed(1)} ×.`, scenarios: ['s2'] })
    assert.equal(costlierThan(c.cost, 500), null, 'not past 500%')
    const decision = decideGate({ comparison: c }, { failOn: 'worse', costlierPercent: 50 })
    assert.deepEqual([decision.result.outcome, decision.verdict, decision.result.scenarios], ['fail', 'worse', ['s2']])
    assert.equal(decideGate({ comparison: c }, { failOn: 'worse' }).verdict, 'within-noise', 'off by default')
    // The comment's section says it, and nothing about speed (which did not change).
    const markdown = comparisonMarkdown(c)
    assert.match(markdown, /\*\*Speed and cost\*\*\n\n- Overall: agent tokens 1\.\d × more per attempt overall \(p = [\d.]+, 95% CI [\d.]+–[\d.]+ ×\): median [\d,]+ → [\d,]+, p90 [\d,]+ → [\d,]+ per attempt\n- s2: agent tokens \d\.\d × more per attempt, p = 0\.0040 \(median [\d,]+ → [\d,]+, p90 [\d,]+ → [\d,]+ per attempt\)\n\n\*Each attempt counts once/)
    assert.doesNotMatch(markdown, /answers \d/)
  })

  test('dollars twice as high overall are told overall with an interval; cheaper is told as less, never gated', () => {
    const noise = noisy(9)
    const before = run(8, 5, () => ({ tokens: null, dollars: 0.002 * noise() }))
    const after = run(8, 5, () => ({ tokens: null, dollars: 0.004 * noise() }))
    const c = compare(before, after)
    assert.equal(c.cost.dollars.overall.change, 'higher')
    const { lower, upper } = c.cost.dollars.overall.interval!
    assert.ok(lower > 1.6 && lower < 2 && upper > 2 && upper < 2.5, `${lower}–${upper}`)
    assert.match(costlierThan(c.cost, 50)!.reason, /^The agent's dollars per attempt are \d\.\d\d × the baseline's overall \(p = .+\), past the 50% allowed \(fail-on-costlier\)\.$/)
    assert.equal(c.cost.tokens.overall.ratio, null, 'no tokens reported on either side: nothing compared')
    assert.equal(c.cost.tokens.overall.change, null)
    const card = speedCard(c).value
    assert.match(card, /^<h2>Speed and cost<\/h2><div class="card"><ul><li>the agent(&#39;|')s dollars \d\.\d × more per attempt overall \(p (=|&lt;) [^)]*, 95% CI [\d.]+–[\d.]+ ×\): median \$0\.002\d* → \$0\.00\d+/)
    const cheaper = compare(after, before)
    assert.equal(cheaper.cost.dollars.overall.change, 'lower')
    assert.match(speedCard(cheaper).value, /the agent(&#39;|')s dollars \d\.\d × less per attempt overall/)
    assert.equal(costlierThan(cheaper.cost, 0), null)
  })

  test("left out: agent errors; never counted: convy-ci's own models (a review that ran, a warm cache)", () => {
    const before = run(5, 5, () => ({ tokens: 1000, dollars: 0.01 }))
    // Adversary (issue 35): the same agent, but convy-ci's side cost 1.6 × more (the review ran on
    // failures) or nothing at all (a warm model cache). Neither is the agent's cost: nothing is told or gated.
    for (const harness of [{ judgeDollars: 0.0016 }, { judgeDollars: 0, cached: 1 }]) {
      const after = run(5, 5, () => ({ tokens: 1000, dollars: 0.01, ...harness }))
      const c = compare(before, after)
      assert.equal(c.cost.dollars.overall.change, null)
      assert.deepEqual(c.cost.dollars.scenarios, [])
      assert.equal(costlierThan(c.cost, 0), null)
      assert.equal(c.tiles.agentCostPerAttempt.tone, 'within-noise')
    }
    // One attempt in five of every scenario broken (the scenarios stay compared), spending far more.
    const broken = (verdict: Attempt['verdict']) => run(5, 5, (_, n) => (n === 1 ? { tokens: 9000, dollars: 0.09 } : { tokens: 1000, dollars: 0.01 }), (n) => (n === 1 ? verdict : 'passed'))
    const errors = compare(before, broken('agent_error'))
    assert.deepEqual([errors.cost.tokens.overall.after.attempts, errors.cost.dollars.overall.after.attempts], [20, 20], 'a conversation cut short is neither a token count nor a cost')
    assert.equal(errors.cost.tokens.overall.change, null)
    const unjudged = compare(before, broken('no_verdict'))
    assert.deepEqual([unjudged.cost.tokens.overall.after.attempts, unjudged.cost.dollars.overall.after.attempts], [25, 25], "the agent's tokens and dollars stand when only the judge failed")
  })
})
