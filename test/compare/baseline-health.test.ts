import assert from 'node:assert/strict'
import { test } from 'node:test'
import { binomialAtLeast } from '../../src/base/stats/exact-tests.ts'
import { baselineHealth, HEALTHY_ERROR_SHARE, MAX_BASELINE_ERROR_SHARE, withBaselineHealth } from '../../src/verdict/baseline-health.ts'
import { tallyRecord } from '../../src/records/tally/run-tally.ts'
import type { GateResult } from '../../src/verdict/gate.ts'
import { run } from './run-builder.ts'

/** A run of four scenarios of five attempts each, with `broken` of its 20 attempts ending in `letter`. */
function withBroken(broken: number, letter: 'E' | 'N' = 'E') {
  const letters = letter.repeat(broken) + 'P'.repeat(20 - broken)
  return tallyRecord(run({ a: letters.slice(0, 5), b: letters.slice(5, 10), c: letters.slice(10, 15), d: letters.slice(15, 20) }))
}

test('a baseline with no more errors than the PR, and below the stated share, is healthy', () => {
  assert.deepEqual(baselineHealth(withBroken(0), withBroken(0)), { healthy: true, reason: null })
  assert.deepEqual(baselineHealth(withBroken(2), withBroken(2)), { healthy: true, reason: null })
  // 3 of 20 is exactly 15%: not above the share; nor significantly above a PR with none (p = 0.12).
  assert.equal(MAX_BASELINE_ERROR_SHARE, 0.15)
  assert.equal(baselineHealth(withBroken(3), withBroken(0)).healthy, true)
  assert.equal(baselineHealth(withBroken(2), withBroken(0)).healthy, true)
})

test('above the stated share a baseline is unhealthy even against a PR as broken, and the reason says so', () => {
  const health = baselineHealth(withBroken(6), withBroken(6))
  assert.equal(health.healthy, false)
  assert.equal(health.reason, 'the baseline bot/2026-03-01T10-00-00_a1b2 is unreliable: 6 of 20 attempts (30%) ended in agent errors, against 30% in this run, above the 15% a baseline may have')
})

test('significantly more errors than the PR make it unhealthy below the share too (one-sided exact test)', () => {
  // 40 attempts per run so that a share under 15% can still be significant: 4 of 40 against 0 of 40 is not (p = 0.058)…
  const big = (broken: number, letter: 'E' | 'N') => tallyRecord(run(Object.fromEntries(Array.from({ length: 8 }, (_, i) => [`s${i}`, (letter.repeat(broken) + 'P'.repeat(40)).slice(i * 5, i * 5 + 5)]))))
  assert.equal(baselineHealth(big(4, 'N'), big(0, 'N')).healthy, true)
  // …and a run with errors is unhealthy against one without when the test says so, whatever the mix of kinds.
  const mixed = tallyRecord(run({ a: 'EEEEN', b: 'PPPPP', c: 'PPPPP', d: 'PPPPP', e: 'PPPPP', f: 'PPPPP', g: 'PPPPP', h: 'PPPPP', i: 'PPPPP', j: 'PPPPP', k: 'PPPPP', l: 'PPPPP', m: 'PPPPP', n: 'PPPPP', o: 'PPPPP', p: 'PPPPP', q: 'PPPPP', r: 'PPPPP', s: 'PPPPP', t: 'PPPPP', u: 'PPPPP' }))
  const clean = tallyRecord(run({ a: 'PPPPP', b: 'PPPPP', c: 'PPPPP', d: 'PPPPP', e: 'PPPPP', f: 'PPPPP', g: 'PPPPP', h: 'PPPPP', i: 'PPPPP', j: 'PPPPP', k: 'PPPPP', l: 'PPPPP', m: 'PPPPP', n: 'PPPPP', o: 'PPPPP', p: 'PPPPP', q: 'PPPPP', r: 'PPPPP', s: 'PPPPP', t: 'PPPPP', u: 'PPPPP' }))
  // 5 of 105 (4.8%) against 0 of 105: p = 0.030 > 0.001, healthy; 10 of 105 (9.5%) against 0: p = 0.00077, unhealthy.
  assert.equal(baselineHealth(mixed, clean).healthy, true)
  const worse = tallyRecord(run({ a: 'EEEEN', b: 'NNNNN', c: 'PPPPP', d: 'PPPPP', e: 'PPPPP', f: 'PPPPP', g: 'PPPPP', h: 'PPPPP', i: 'PPPPP', j: 'PPPPP', k: 'PPPPP', l: 'PPPPP', m: 'PPPPP', n: 'PPPPP', o: 'PPPPP', p: 'PPPPP', q: 'PPPPP', r: 'PPPPP', s: 'PPPPP', t: 'PPPPP', u: 'PPPPP' }))
  const health = baselineHealth(worse, clean)
  assert.equal(health.healthy, false)
  assert.match(health.reason!, /10 of 105 attempts \(\d+(\.\d)?%\) ended in agent errors \(4\) or without a verdict \(6\), against 0% in this run, significantly more than this run$/)
  // Without the PR's run only the share counts.
  assert.equal(baselineHealth(worse, null).healthy, true)
  assert.equal(baselineHealth(withBroken(6), null).healthy, false)
})

test('a small suite is judged by counts that make sense for it: above 15% by a few errors is chance, not an unhealthy baseline', () => {
  // 4 of 20 (20%) is above the share, but a healthy run (7.5% broken) has that many 5.8% of the time.
  assert.equal(HEALTHY_ERROR_SHARE, 0.075)
  assert.equal(baselineHealth(withBroken(4), null).healthy, true)
  assert.equal(baselineHealth(withBroken(5), null).healthy, true)
  // 6 of 20 (30%): p = 0.0027 under a healthy run's share, unhealthy.
  assert.equal(baselineHealth(withBroken(6), null).healthy, false)
  assert.ok(Math.abs(binomialAtLeast(6, 20, 0.075) - 0.0027) < 0.0001)
  // From about 100 attempts on, the share alone decides, as before: 16 of 100 is unhealthy.
  const hundred = (broken: number) => tallyRecord(run(Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`s${i}`, ('E'.repeat(broken) + 'P'.repeat(100)).slice(i * 5, i * 5 + 5)]))))
  assert.equal(baselineHealth(hundred(16), null).healthy, false)
  assert.equal(baselineHealth(hundred(15), null).healthy, true)
})

test('an unhealthy baseline turns a pass, or too little to tell, into evidence missing naming its errors; a fail or evidence already missing stands', () => {
  const unhealthy = baselineHealth(withBroken(6, 'N'), withBroken(0))
  const pass: GateResult = { outcome: 'pass', inconclusive: null, failKind: null, reason: 'Better than the baseline.', scenarios: [], tellingK: null }
  const turned = withBaselineHealth(pass, unhealthy)
  assert.equal(turned.outcome, 'inconclusive')
  assert.equal(turned.inconclusive, 'evidence-missing')
  assert.match(turned.reason, /^Not a pass: the baseline bot\/2026-03-01T10-00-00_a1b2 is unreliable: 6 of 20 attempts \(30%\) ended without a verdict, against 0% in this run/)
  const fail: GateResult = { outcome: 'fail', inconclusive: null, failKind: 'worse', reason: 'Worse than the baseline: a.', scenarios: ['a'], tellingK: null }
  assert.deepEqual(withBaselineHealth(fail, unhealthy), fail)
  const missing: GateResult = { outcome: 'inconclusive', inconclusive: 'evidence-missing', failKind: null, reason: 'No scenario could be compared.', scenarios: [], tellingK: null }
  assert.deepEqual(withBaselineHealth(missing, unhealthy), missing)
  const tooLittle: GateResult = { outcome: 'inconclusive', inconclusive: 'too-little-to-tell', failKind: null, reason: 'k too low.', scenarios: [], tellingK: 5 }
  assert.equal(withBaselineHealth(tooLittle, unhealthy).inconclusive, 'evidence-missing')
  assert.deepEqual(withBaselineHealth(pass, { healthy: true, reason: null }), pass)
})
