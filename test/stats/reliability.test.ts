import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { passAtK, passHatK, stability } from '../../src/base/stats/reliability.ts'
import { assertClose, choose, ratio } from './exact-arithmetic.ts'

const counts = (passed: number, total: number) => ({ passed, total })
// stats.md §3: four scenarios, n = 5, c = 5, 4, 3, 1.
const example = [counts(5, 5), counts(4, 5), counts(3, 5), counts(1, 5)]

describe('passHatK', () => {
  test('reproduces stats.md §3: 0.650, 0.475, 0.375, 0.300, 0.250', () => {
    assert.deepEqual([1, 2, 3, 4, 5].map((k) => passHatK(example, k).value!.toFixed(3)), ['0.650', '0.475', '0.375', '0.300', '0.250'])
  })

  test('equals the mean of C(c, k)/C(n, k) computed exactly', () => {
    const scenarios = [counts(7, 9), counts(2, 9), counts(9, 9), counts(5, 6)]
    for (let k = 1; k <= 6; k++) {
      const expected = scenarios.reduce((sum, s) => sum + ratio(choose(s.passed, k), choose(s.total, k)), 0) / scenarios.length
      assertClose(passHatK(scenarios, k).value!, expected, 1e-12, `k = ${k}`)
    }
  })

  test('skips scenarios with fewer than k verdicts and says how many', () => {
    const result = passHatK([counts(3, 3), counts(1, 2), counts(0, 0)], 3)
    assert.deepEqual(result, { k: 3, value: 1, scenarios: 1, skipped: 2 })
    assert.equal(passHatK([counts(1, 2)], 3).value, null)
  })
})

describe('passAtK', () => {
  test('reproduces stats.md §3: 0.650, 0.825, 0.900, 0.950, 1.000', () => {
    assert.deepEqual([1, 2, 3, 4, 5].map((k) => passAtK(example, k).value!.toFixed(3)), ['0.650', '0.825', '0.900', '0.950', '1.000'])
  })

  test('equals the mean of 1 − C(n−c, k)/C(n, k) computed exactly', () => {
    const scenarios = [counts(1, 10), counts(0, 10), counts(4, 7)]
    for (let k = 1; k <= 7; k++) {
      const expected = scenarios.reduce((sum, s) => sum + 1 - ratio(choose(s.total - s.passed, k), choose(s.total, k)), 0) / scenarios.length
      assertClose(passAtK(scenarios, k).value!, expected, 1e-12, `k = ${k}`)
    }
  })
})

describe('stability', () => {
  test('counts always-pass, flaky, always-fail and no-verdict scenarios', () => {
    assert.deepEqual(stability([...example, counts(0, 3), counts(0, 0)]), { alwaysPass: 1, flaky: 3, alwaysFail: 1, noVerdict: 1 })
  })
})
