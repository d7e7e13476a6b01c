import assert from 'node:assert/strict'
import { test } from 'node:test'
import { driftBound, studentT99 } from '../../src/base/stats/run-drift.ts'

test("Student's t at 0.99: the table's values, and the value at 30 past it", () => {
  assert.equal(studentT99(1), 31.821)
  assert.equal(studentT99(2), 6.965)
  assert.equal(studentT99(4), 3.747)
  assert.equal(studentT99(30), 2.457)
  assert.equal(studentT99(200), 2.457)
  assert.throws(() => studentT99(0), RangeError)
})

test('the drift bound: exp(t(0.99, n − 1) · s · √2) of the runs’ log medians, never below the ratio they showed', () => {
  // Reference values from python's math: max(max/min, exp(t · sd · √2)), sd with n − 1.
  assert.ok(Math.abs(driftBound([1.0, 1.45, 1.2]) - 6.234234779609691) < 1e-9)
  assert.ok(Math.abs(driftBound([1, 1.03, 1.01, 1.02, 1.0]) - 1.0705093720756091) < 1e-9)
  assert.ok(Math.abs(driftBound([1, 1.05, 0.97, 1.02, 1.04]) - 1.1834650282086725) < 1e-9)
  // Runs that all took the same time drift by nothing.
  assert.equal(driftBound([2, 2, 2]), 1)
  assert.throws(() => driftBound([1]), RangeError)
})
