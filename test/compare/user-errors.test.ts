import assert from 'node:assert/strict'
import { test } from 'node:test'
import { compareRuns } from '../../src/verdict/compare-runs.ts'
import { tallyRecord, type RunRecord } from '../../src/records/tally/run-tally.ts'
import { runCounts } from '../../src/records/tally/run-counts.ts'
import { attempt, run } from './run-builder.ts'

const now = new Date('2026-03-02T00:00:00Z')

/** `record` with `count` more attempts of scenario `id`, numbered after its own, each with `verdict`. */
function withMore(record: RunRecord, id: string, count: number, verdict: 'user_error' | 'failed'): RunRecord {
  const first = record.attempts.filter((a) => a.scenario === id).length + 1
  return { ...record, attempts: [...record.attempts, ...Array.from({ length: count }, (_, i) => attempt(id, first + i, verdict))] }
}

test('user errors are counted apart by the tally, so a comparison counts them neither as passes nor as failures', () => {
  const before = run({ a: 'PPPPP', b: 'PPPPP' })
  const after = run({ a: 'PPPPP', b: 'PPPPP' })
  const compare = (head: RunRecord) => compareRuns(tallyRecord(before), tallyRecord(head), { now })

  const counts = runCounts(tallyRecord(withMore(after, 'b', 5, 'user_error')))
  assert.deepEqual([counts.passed, counts.failed, counts.judged, counts.userErrors, counts.attempts], [10, 0, 10, 5, 15])

  const plain = compare(after)
  const withUserErrors = compare(withMore(after, 'b', 5, 'user_error'))
  assert.equal(withUserErrors.verdict, plain.verdict)
  assert.deepEqual(withUserErrors.tiles.passRate, plain.tiles.passRate)
  assert.deepEqual(withUserErrors.scenarios.same.map((s) => [s.id, s.after.passed, s.after.judged, s.after.attempts]), [['a', 5, 5, 5], ['b', 5, 5, 5]])
  assert.equal(withUserErrors.scenarios.same[1]!.moreWithoutVerdict, null, 'nor as attempts without a verdict')

  // The same five attempts as failures are the agent's: they count, and the scenario drops.
  const withFailures = compare(withMore(after, 'b', 5, 'failed'))
  assert.notDeepEqual(withFailures.tiles.passRate, plain.tiles.passRate)
})
