import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { fisherExact } from '../../src/base/stats/exact-tests.ts'
import { taroneCorrection } from '../../src/base/stats/tarone.ts'
import { seededRandom } from './exact-arithmetic.ts'

const minimumWorseP = ([after, before]: [number, number], k = 5) => fisherExact({ passed: after, total: k }, { passed: before, total: k }).minimumLess

describe('taroneCorrection', () => {
  test('stats.md example B: only the broken scenario can reach 0.05, so K = 1', () => {
    // 19 scenarios of noise around 5/5 (none can reach 0.05) and one that went 5/5 → 0/5.
    const scenarios: [number, number][] = [...Array.from({ length: 15 }, (): [number, number] => [5, 5]), [4, 5], [5, 4], [4, 4], [5, 3], [0, 5]]
    const correction = taroneCorrection(scenarios.map((s) => minimumWorseP(s)), 0.05)
    assert.equal(correction.testable, 1)
    assert.equal(correction.threshold, 0.05)
    const broken = fisherExact({ passed: 0, total: 5 }, { passed: 5, total: 5 })
    assert.ok(broken.less <= correction.threshold)
  })

  test('counts only scenarios that could reach α/K: three at 6/252 give K = 3', () => {
    // 4/5 → 0/5, 3/5 → 3/5 and 2/5 → 4/5 each have a smallest one-sided p of 6/252 ≈ 0.024.
    const correction = taroneCorrection([[0, 4], [3, 3], [2, 4], [5, 5], [4, 3]].map((s) => minimumWorseP(s as [number, number])), 0.05)
    assert.equal(correction.testable, 3)
    assert.ok(Math.abs(correction.threshold - 0.05 / 3) < 1e-15)
  })

  test('keeps a p of exactly α reachable despite rounding (3/3 → 0/3 alone)', () => {
    const correction = taroneCorrection([minimumWorseP([0, 3], 3)], 0.05)
    assert.equal(correction.testable, 1)
  })

  test('with no scenarios is α itself', () => {
    assert.deepEqual(taroneCorrection([], 0.05), { alpha: 0.05, testable: 1, threshold: 0.05 })
  })

  test('K is always the smallest number meeting Tarone’s condition', () => {
    const random = seededRandom(5)
    for (let round = 0; round < 200; round++) {
      const minimumPs = Array.from({ length: Math.floor(random() * 40) }, () => random() ** 3)
      const { testable } = taroneCorrection(minimumPs, 0.05)
      const reachable = (k: number) => minimumPs.filter((m) => m <= 0.05 / k).length
      assert.ok(reachable(testable) <= testable, 'the condition holds at K')
      for (let smaller = 1; smaller < testable; smaller++) assert.ok(reachable(smaller) > smaller, `the condition fails at ${smaller}`)
    }
  })
})
