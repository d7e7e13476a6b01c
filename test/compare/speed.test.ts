import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import type { Attempt } from '../../src/records/journal/records.ts'
import { tallyRecord, type RunRecord } from '../../src/records/tally/run-tally.ts'
import { seededRandom } from '../../src/base/stats/permutation.ts'
import { compareRuns } from '../../src/verdict/compare-runs.ts'
import { slowerThan } from '../../src/verdict/speed.ts'
import { attempt, manifest, scenario } from './run-builder.ts'

/**
 * Answer times in a comparison: one value per attempt (its mean answer time), a permutation test
 * stratified by scenario on their logs, scenarios tested alone with Tarone's correction, and a
 * change told only beyond noise and past ×1.1.
 */
const now = new Date('2026-03-02T00:00:00Z')

/** Scenarios × k attempts, each attempt's two answers taking `seconds(scenario index, attempt)`. */
function run(scenarios: number, k: number, seconds: (s: number, n: number) => number): RunRecord {
  const ids = Array.from({ length: scenarios }, (_, i) => `s${i}`)
  const attempts = ids.flatMap((id, s) =>
    Array.from({ length: k }, (_, i): Attempt => {
      const base = attempt(id, i + 1, 'passed')
      const t = seconds(s, i + 1)
      const agent = { ...base.turns[1]!, seconds: t }
      return { ...base, turns: [base.turns[0]!, agent, base.turns[0]!, agent] }
    }),
  )
  return { manifest: manifest({ scenarios: ids.map((id) => scenario(id)) }), attempts }
}

const compare = (before: RunRecord, after: RunRecord) => compareRuns(tallyRecord(before), tallyRecord(after), { now })

describe('speed in a comparison', () => {
  test('one scenario three times slower in every attempt is told alone, with its ratio and exact p', () => {
    // Three scenarios: at k = 5 each can reach p = 1/252, and Tarone's correction over three keeps that
    // under 0.0125/3. Over four or more, a single scenario at k = 5 cannot register alone (the overall test can).
    const noise = seededRandom(3)
    const times = Array.from({ length: 5 * 5 * 2 }, () => Math.exp(noise() * 0.4))
    const before = run(3, 5, (s, n) => times[s * 5 + n - 1]!)
    const after = run(3, 5, (s, n) => times[25 + s * 5 + n - 1]! * (s === 2 ? 3 : 1))
    const speed = compare(before, after).speed
    assert.deepEqual(speed.scenarios.map((s) => [s.id, s.change]), [['s2', 'higher']])
    assert.ok(speed.scenarios[0]!.ratio! > 2.5 && speed.scenarios[0]!.ratio! < 3.6, `ratio ${speed.scenarios[0]!.ratio}`)
    assert.equal(speed.scenarios[0]!.pHigher, 1 / 252, '5 vs 5 attempts: the most extreme of 252 ways')
    assert.equal(slowerThan(speed, 60)?.reason, 'Slower past 60% (fail-on-slower): s2 3.0 ×.'.replace('3.0', speed.scenarios[0]!.ratio!.toFixed(1)))
    assert.equal(slowerThan(speed, 400), null, 'not past 400%')
  })

  test('the same times in both runs change nothing; a 5% slow-down everywhere is below what is ever called', () => {
    const same = run(5, 5, (s, n) => 1 + s / 10 + n / 100)
    assert.equal(compare(same, same).speed.overall.change, null)
    const slightly = run(5, 5, (s, n) => (1 + s / 10 + n / 100) * 1.05)
    const speed = compare(same, slightly).speed
    assert.ok(speed.overall.pHigher < 0.001, 'the test sees it')
    assert.equal(speed.overall.change, null, 'but ×1.05 is not a change worth telling')
    assert.ok(Math.abs(speed.overall.ratio! - 1.05) < 1e-9)
  })

  test('twice as slow overall is told overall, with an interval around the ratio, and gates past 50%', () => {
    const noise = seededRandom(11)
    const before = run(8, 5, () => Math.exp(noise() * 0.5))
    const after = run(8, 5, () => 2 * Math.exp(noise() * 0.5))
    const speed = compare(before, after).speed
    assert.equal(speed.overall.change, 'higher')
    assert.ok(speed.overall.interval!.lower < speed.overall.ratio! && speed.overall.ratio! < speed.overall.interval!.upper)
    assert.ok(speed.overall.interval!.lower > 1.5 && speed.overall.interval!.upper < 2.7, JSON.stringify(speed.overall.interval))
    assert.match(slowerThan(speed, 50)!.reason, /^Answers are \d\.\d\d × slower overall \(p = .+\), past the 50% allowed \(fail-on-slower\)\.$/)
  })

  test('agent errors are left out: a timeout is not an answer time', () => {
    const before = run(1, 5, () => 1)
    const after = run(1, 5, () => 1)
    after.attempts = after.attempts.map((a, i) => (i < 2 ? { ...a, verdict: 'agent_error', turns: a.turns.map((t) => (t.role === 'agent' ? { ...t, seconds: 600 } : t)) } : a))
    const speed = compare(before, after).speed
    assert.deepEqual([speed.overall.after.attempts, speed.overall.ratio], [3, 1])
  })
})
