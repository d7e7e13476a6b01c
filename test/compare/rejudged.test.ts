import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { compareRuns } from '../../src/verdict/compare-runs.ts'
import { afterRejudging } from '../../src/verdict/rejudged.ts'
import { gate } from '../../src/verdict/gate.ts'
import { standing } from '../../src/verdict/standing.ts'
import type { RunRecord } from '../../src/records/tally/run-tally.ts'
import { tallyRecord } from '../../src/records/tally/run-tally.ts'
import { run } from './run-builder.ts'

const now = new Date('2026-03-02T00:00:00Z')
const compare = (before: RunRecord, after: RunRecord) => compareRuns(tallyRecord(before), tallyRecord(after), { now })

/** The run with each attempt of `id` judged again: its votes per attempt, decided by their majority. */
function rejudged(record: RunRecord, id: string, votes: boolean[][]): RunRecord {
  return {
    ...record,
    attempts: record.attempts.map((a) => {
      if (a.scenario !== id) return a
      const v = votes[a.attempt - 1]!
      const pass = v.filter(Boolean).length * 2 > v.length
      return { ...a, verdict: pass ? 'passed' : 'failed', claims: [{ claim: 'The agent helped', pass, reason: 'again', votes: v }] }
    }),
  }
}

describe('a comparison after the deciding scenarios were judged again', () => {
  const before = run({ a: 'PPPPP', b: 'PPPPP', c: 'PPPPP' })
  const after = run({ a: 'FFFFF', b: 'PPPPP', c: 'PPPPP' })

  test('a Worse that disappears under the judge’s majority is judge-unstable, and the gate is inconclusive', () => {
    const first = compare(before, after)
    assert.deepEqual(first.scenarios.worse.map((s) => s.id), ['a'])
    const again = afterRejudging(first, compare(before, rejudged(after, 'a', Array.from({ length: 5 }, () => [true, true, false]))), { bothSides: false })
    assert.equal(again.verdict, 'within-noise')
    assert.equal(again.scenarios.same.find((s) => s.id === 'a')!.judgeUnstable, 'worse')
    assert.equal(standing(again), 'judge-unstable')
    assert.equal(gate(again, { failOn: 'worse' }).outcome, 'inconclusive')
    assert.equal(gate(again, { failOn: 'worse' }).inconclusive, 'evidence-missing', 'only this run was judged again: the drop is unexplained')
  })

  test('judged again on both sides alike, a Worse that disappears is settled: labelled judge-unstable, and the gate passes', () => {
    const first = compare(before, after)
    const both = afterRejudging(first, compare(rejudged(before, 'a', Array.from({ length: 5 }, () => [true, true, false])), rejudged(after, 'a', Array.from({ length: 5 }, () => [true, true, false]))), { bothSides: true })
    const a = both.scenarios.same.find((s) => s.id === 'a')!
    assert.equal(a.judgeUnstable, 'worse')
    assert.equal(a.settledByRejudge, true)
    assert.equal(standing(both), 'judge-unstable')
    assert.deepEqual(gate(both, { failOn: 'worse' }).outcome, 'pass')
    // The same counts with one side judged again are not settled.
    const one = afterRejudging(first, compare(before, rejudged(after, 'a', Array.from({ length: 5 }, () => [true, true, false]))), { bothSides: false })
    assert.equal(gate(one, { failOn: 'worse' }).outcome, 'inconclusive')
  })

  test('a judge that holds its decision leaves the scenario Worse, and the gate fails', () => {
    const first = compare(before, after)
    const again = afterRejudging(first, compare(before, rejudged(after, 'a', Array.from({ length: 5 }, () => [false, false, false]))), { bothSides: false })
    assert.deepEqual(again.scenarios.worse.map((s) => s.id), ['a'])
    assert.equal(again.scenarios.same.every((s) => s.judgeUnstable === null), true)
    assert.equal(gate(again, { failOn: 'worse' }).outcome, 'fail')
  })
})
