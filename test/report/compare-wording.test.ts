import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { compareRuns } from '../../src/verdict/compare-runs.ts'
import { dollars, pEquals, percent, points, pValue, seconds, secondsChange, signed, signedDollars } from '../../src/views/page/format.ts'
import { overallSentence, sensitivitySentence, verdictReason } from '../../src/views/compare/compare-wording.ts'
import { manifest, outcomes, run } from '../compare/run-builder.ts'
import { tallyRecord } from '../../src/records/tally/run-tally.ts'

const now = new Date('2026-03-02T00:00:00Z')
const runOf = (layout: Record<string, number>, k: number) =>
  run(Object.fromEntries(Object.entries(layout).map(([id, passes]) => [id, outcomes(passes, k)])), { manifest: { settings: { ...manifest().settings, k } } })
const ids = (n: number, passes: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`s${i}`, passes]))

describe('numbers in words', () => {
  test('percentages never round to all or nothing unless it is so', () => {
    assert.deepEqual([percent(1), percent(0.996), percent(0.891), percent(0.004), percent(0)], ['100%', '99.6%', '89%', '0.4%', '0%'])
  })

  test('changes in points, signed with a real minus', () => {
    assert.deepEqual([points(-0.07), points(0.029), points(0), points(-1)], ['−7 pp', '+2.9 pp', '0 pp', '−100 pp'])
    assert.equal(signed(-0.04, 1), '0.0')
  })

  test('p-values with two significant digits', () => {
    assert.deepEqual([pValue(0.0903), pValue(0.22222), pValue(0.00397), pValue(0.00001), pValue(1)], ['0.090', '0.22', '0.0040', '< 0.0001', '1'])
    assert.deepEqual([pEquals(0.05), pEquals(0.00001)], ['p = 0.050', 'p < 0.0001'])
  })

  test('dollars one way everywhere: cents from a dime, two significant digits below, no exponent', () => {
    assert.deepEqual([dollars(0), dollars(12.5), dollars(0.88), dollars(0.1), dollars(0.034), dollars(0.05), dollars(0.0021), dollars(0.000001), dollars(1.5e-7)], [
      '$0.00', '$12.50', '$0.88', '$0.10', '$0.034', '$0.05', '$0.0021', '$0.000001', '$0.00000015',
    ])
    assert.deepEqual([signedDollars(0.12), signedDollars(-0.0031), signedDollars(1e-18)], ['+$0.12', '−$0.0031', '$0.00'])
  })

  test('durations one way everywhere: milliseconds, seconds, minutes, hours', () => {
    assert.deepEqual([seconds(0.05), seconds(1.54), seconds(42.4), seconds(185), seconds(7800), seconds(null)], ['50 ms', '1.5 s', '42 s', '3 min 5 s', '2 h 10 min', '–'])
    assert.deepEqual([secondsChange(0.4), secondsChange(-1.25), secondsChange(0.01)], ['+0.4 s', '−1.3 s', '+10 ms'])
  })
})

describe('the statistics sentences', () => {
  test('stats.md’s advice for 20 scenarios × 3 attempts from 90%, at the levels bench:verdict tuned', () => {
    const before = runOf({ ...ids(18, 3), t0: 0, t1: 0 }, 3)
    const c = compareRuns(tallyRecord(before), tallyRecord(before), { now })
    // stats.md says 20 points at two-sided 0.05; the overall test runs at one-sided 0.01 and the exact
    // tests need more attempts than the formula (a 1.4th), and a scenario needs one-sided 0.02 (Tarone),
    // which 3/3 → 0/3 (p = 0.05) does not reach.
    assert.equal(
      sensitivitySentence(c),
      'With 3 attempts per scenario, only a drop of 28 points or more (from 90%) would register reliably; no single scenario can register on its own (even 3/3 → 0/3 does not reach one-sided p ≤ 0.02: 0.02 over 1 testable scenario, Tarone).',
    )
  })

  test('a rise within noise is described as a rise, with its p-value in the better direction', () => {
    const before = runOf({ ...ids(10, 4), x: 3 }, 5)
    const after = runOf({ ...ids(10, 4), x: 5 }, 5)
    const c = compareRuns(tallyRecord(before), tallyRecord(after), { now })
    assert.match(overallSentence(c), /^Within noise: the pass rate went from 78% to 82% \(Δ \+4 pp, 95% CI −\d+\.\d pp to \+\d+\.\d pp\)/)
    assert.match(overallSentence(c), /this high in \d+% of shuffles \(p = 0\.\d+\); calling it better takes p ≤ 0\.01\.$/)
    assert.equal(verdictReason(c), 'The pass rate went from 78% to 82% (Δ +4 pp), within noise, and no single scenario moved beyond noise.')
  })

  test('a drop beyond noise says so, with the threshold it crossed', () => {
    const c = compareRuns(tallyRecord(runOf(ids(20, 5), 5)), tallyRecord(runOf(ids(20, 3), 5)), { now })
    assert.match(overallSentence(c), /^Worse: the pass rate went from 100% to 60% \(Δ −40 pp, .*\(p < 0\.0001\), at or under the 0\.01 that calls it worse\.$/)
    assert.equal(verdictReason(c), 'The pass rate went from 100% to 60% (Δ −40 pp), worse, beyond noise, driven by 20 scenarios that dropped (none beyond noise alone).')
  })

  test('where the tiles count scenarios the comparison does not, the sentence says which scenarios its rates are over', () => {
    // A new scenario failing every attempt lowers the after tile (91%) but is not compared: the sentence's
    // 100% → 100% would read as contradicting the tile without its "over the 10 scenarios".
    const c = compareRuns(tallyRecord(runOf(ids(10, 5), 5)), tallyRecord(runOf({ ...ids(10, 5), fresh: 0 }, 5)), { now })
    assert.equal(percent(c.tiles.passRate.after!), '91%')
    assert.equal(verdictReason(c), 'The pass rate went from 100% to 100% over the 10 scenarios both runs played alike (Δ 0 pp), within noise, and no single scenario moved beyond noise.')
    const same = compareRuns(tallyRecord(runOf(ids(10, 5), 5)), tallyRecord(runOf(ids(10, 4), 5)), { now })
    assert.doesNotMatch(verdictReason(same), /over the/)
  })

  test('a drop driven by a scenario on its own and one with the others says both, without contradicting itself', () => {
    const c = compareRuns(tallyRecord(runOf({ a: 5, b: 5, c: 5 }, 5)), tallyRecord(runOf({ a: 0, b: 2, c: 5 }, 5)), { now })
    const reason = verdictReason(c)
    assert.doesNotMatch(reason, /none beyond noise alone/)
    assert.match(reason, /, driven by 1 scenario that got worse on its own( and 1 more that dropped with the others, not alone)?\.$/)
  })

  test('from a low baseline not even a drop to 0% would register', () => {
    const c = compareRuns(tallyRecord(runOf({ a: 1, b: 0 }, 2)), tallyRecord(runOf({ a: 1, b: 0 }, 2)), { now })
    assert.match(sensitivitySentence(c), /^With 2 attempts per scenario, not even a drop to 0% would register reliably; no single scenario can register on its own/)
  })
})
