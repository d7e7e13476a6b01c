import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { compareRuns } from '../../src/verdict/compare-runs.ts'
import { decideGate, type GateSettings } from '../../src/verdict/decide-gate.ts'
import { FAIL_ON, gateFails } from '../../src/verdict/gate.ts'
import { judgeGate } from '../../src/verdict/judge-calibration.ts'
import type { BaselineHealth } from '../../src/verdict/baseline-health.ts'
import type { Comparison } from '../../src/verdict/comparison.ts'
import { tallyRecord, type RunRecord } from '../../src/records/tally/run-tally.ts'
import { seededRandom } from '../../src/base/stats/permutation.ts'
import { run } from './run-builder.ts'

/**
 * One decision for the gate (verdict/decide-gate.ts): the verdict output, which inconclusive, the
 * step's result and so the check and the exit code are all read from it. The adversary's route it
 * closes: a within-noise comparison over an unhealthy baseline, or over an unchecked judge, used to
 * give `verdict: within-noise` while the gate said evidence missing, so a workflow gating on the
 * output (`verdict == 'worse'`, `verdict != 'inconclusive'`) walked around the gate.
 */
const now = new Date('2026-03-02T00:00:00Z')
const compare = (before: RunRecord, after: RunRecord) => compareRuns(tallyRecord(before), tallyRecord(after), { now })
const steady = (n: number, outcome = 'PPPPP') => Object.fromEntries(Array.from({ length: n }, (_, i) => [`s${i}`, outcome]))

const K2 = { manifest: { settings: { k: 2, parallel: 1, turnTimeoutSeconds: 60, scenarioGlobs: [], tags: [], smoke: false, shard: null } } }
const SAME = run(steady(10))
const WITHIN_NOISE = compare(SAME, SAME)
const UNHEALTHY: BaselineHealth = { healthy: false, reason: 'the baseline bot/x is unreliable: 10 of 50 attempts (20%) ended without a verdict' }
const UNCHECKED = judgeGate(0.7, null, SAME.manifest)

/** Attempts of `scenarios` scenarios whose answer takes `seconds(scenario, attempt)`, each passing. */
function timed(scenarios: number, seconds: (s: number, n: number) => number): RunRecord {
  const base = run(steady(scenarios))
  return {
    ...base,
    attempts: base.attempts.map((a) => {
      const s = Number(a.scenario.slice(1))
      const agent = { ...a.turns[1]!, seconds: seconds(s, a.attempt) }
      return { ...a, turns: [a.turns[0]!, agent] }
    }),
  }
}

describe('decideGate: the verdict output comes from the gate that fails the step', () => {
  test('an unhealthy baseline: the verdict is inconclusive (evidence missing), not within-noise, whatever the fail-on', () => {
    assert.equal(WITHIN_NOISE.verdict, 'within-noise', 'the comparison alone says within noise')
    for (const failOn of FAIL_ON) {
      const decision = decideGate({ comparison: WITHIN_NOISE }, { failOn, health: UNHEALTHY })
      assert.equal(decision.verdict, 'inconclusive', failOn)
      assert.equal(decision.inconclusive, 'evidence-missing', failOn)
      assert.match(decision.worse!.reason, /^Not a pass: the baseline bot\/x is unreliable/)
    }
    const worse = decideGate({ comparison: WITHIN_NOISE }, { failOn: 'worse', health: UNHEALTHY })
    assert.equal(worse.result, worse.worse, 'under fail-on: worse the step and the verdict read the very same decision')
    assert.equal(gateFails(worse.result), true, 'and it fails the step by default')
    // Only fail-on: worse holds the run against its baseline: `failing` judges the run's own attempts (all passed).
    assert.equal(decideGate({ comparison: WITHIN_NOISE }, { failOn: 'failing', health: UNHEALTHY }).result.outcome, 'pass')
  })

  test('an unchecked judge (judge.min_kappa without a calibration): the verdict is inconclusive too', () => {
    const decision = decideGate({ comparison: WITHIN_NOISE }, { failOn: 'worse', judge: UNCHECKED })
    assert.deepEqual([decision.verdict, decision.inconclusive, decision.result.outcome], ['inconclusive', 'evidence-missing', 'inconclusive'])
    assert.match(decision.result.reason, /^The verdict rests on an unchecked judge: no calibration of this judge against labels/)
    // fail-on: never does not gate on the judge, but the verdict output still says what worse would decide.
    const never = decideGate({ comparison: WITHIN_NOISE }, { failOn: 'never', judge: UNCHECKED })
    assert.deepEqual([never.result.outcome, never.verdict], ['pass', 'inconclusive'])
  })

  test('a healthy baseline and no minimum κ: within noise passes, and a Worse comparison is worse however unhealthy the baseline', () => {
    const plain = decideGate({ comparison: WITHIN_NOISE }, { failOn: 'worse', health: { healthy: true, reason: null } })
    assert.deepEqual([plain.verdict, plain.inconclusive, plain.result.outcome], ['within-noise', null, 'pass'])
    const broken = compare(run({ ...steady(4), x: 'PPPPPPPPPP' }), run({ ...steady(4), x: 'FFFFFFFFFF' }))
    assert.equal(broken.verdict, 'worse')
    const decision = decideGate({ comparison: broken }, { failOn: 'worse', health: UNHEALTHY, judge: UNCHECKED })
    assert.deepEqual([decision.verdict, decision.inconclusive, decision.result.outcome], ['worse', null, 'fail'], 'an unhealthy baseline can hide a break, never invent or excuse one')
    assert.match(decision.result.reason, /^Worse than the baseline: x\. The verdict rests on an unchecked judge/)
    assert.equal(decision.result.failKind, 'worse', 'what failed it is a kind the app decides on, whatever the reason says after it')
    assert.equal(plain.result.failKind, null)
  })

  test('answers past fail-on-slower: the step fails under any fail-on, and the verdict says worse', () => {
    const noise = seededRandom(7)
    const before = timed(5, () => Math.exp(noise() * 0.3))
    const after = timed(5, () => 3 * Math.exp(noise() * 0.3))
    const c = compare(before, after)
    assert.equal(c.verdict, 'within-noise', 'the pass rates did not move')
    for (const failOn of FAIL_ON) {
      const decision = decideGate({ comparison: c }, { failOn, slowerPercent: 50 })
      assert.equal(decision.result.outcome, 'fail', failOn)
      assert.equal(decision.result.failKind, 'limit', failOn)
      assert.match(decision.result.reason, /^Answers are \d\.\d\d × slower overall \(p = .+\), past the 50% allowed \(fail-on-slower\)\.$/)
      assert.equal(decision.verdict, 'worse', failOn)
    }
    assert.equal(decideGate({ comparison: c }, { failOn: 'worse', slowerPercent: 500 }).verdict, 'within-noise', 'not past 500%')
    assert.equal(decideGate({ comparison: c }, { failOn: 'worse' }).verdict, 'within-noise', 'off by default')
    // A limit passed on top of missing evidence fails (a finding), and still says what is missing.
    const both = decideGate({ comparison: c }, { failOn: 'worse', slowerPercent: 50, health: UNHEALTHY })
    assert.equal(both.result.outcome, 'fail')
    assert.match(both.result.reason, / Also: Not a pass: the baseline bot\/x is unreliable/)
  })

  test('without a comparison there is no verdict: fail-on: failing decides on the run, the judge counted', () => {
    const counts = { passed: 5, failed: 0, agentErrors: 0, noVerdicts: 0 }
    assert.deepEqual(decideGate({ run: counts }, { failOn: 'failing' }), { result: { outcome: 'pass', inconclusive: null, failKind: null, reason: 'All 5 attempts passed.', scenarios: [], tellingK: null }, verdict: null, inconclusive: null, worse: null })
    const unchecked = decideGate({ run: counts }, { failOn: 'failing', judge: UNCHECKED })
    assert.deepEqual([unchecked.result.outcome, unchecked.result.inconclusive, unchecked.verdict], ['inconclusive', 'evidence-missing', null])
    const failed = decideGate({ run: { ...counts, failed: 1 } }, { failOn: 'failing' }).result
    assert.deepEqual([failed.outcome, failed.failKind], ['fail', 'not-all-passed'])
  })

  test('under fail-on: worse, the step fails exactly when the verdict output is worse or inconclusive with evidence missing', () => {
    const comparisons: Comparison[] = [
      WITHIN_NOISE,
      compare(run({ ...steady(4), x: 'PPPPPPPPPP' }), run({ ...steady(4), x: 'FFFFFFFFFF' })),
      compare(run({ ...steady(4), x: 'FFFFFFFFFF' }), run({ ...steady(4), x: 'PPPPPPPPPP' })),
      compare(run({ ...steady(9), x: 'PPPPP' }), run({ ...steady(9), x: 'FFUUU' })),
      compare(run(steady(5, 'PP'), K2), run(steady(5, 'PP'), K2)),
    ]
    const settings: Omit<GateSettings, 'failOn'>[] = [{}, { health: UNHEALTHY }, { judge: UNCHECKED }, { health: UNHEALTHY, judge: UNCHECKED }]
    const seen = new Set<string>()
    for (const comparison of comparisons) {
      for (const extra of settings) {
        const d = decideGate({ comparison }, { failOn: 'worse', ...extra })
        seen.add(`${d.verdict}/${d.inconclusive}`)
        assert.equal(gateFails(d.result), d.verdict === 'worse' || d.inconclusive === 'evidence-missing', JSON.stringify([d.verdict, d.result]))
        assert.equal(d.result.outcome === 'inconclusive', d.verdict === 'inconclusive')
        assert.equal(d.result.inconclusive, d.inconclusive)
      }
    }
    assert.deepEqual([...seen].sort(), ['better/null', 'inconclusive/evidence-missing', 'inconclusive/too-little-to-tell', 'within-noise/null', 'worse/null'])
  })
})
