import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { flaggableScenarioDrop, minimumDetectableDrop, Z_80 } from '../../src/base/stats/detectable.ts'
import { assertClose } from './exact-arithmetic.ts'

describe('minimumDetectableDrop', () => {
  test('reproduces the table of stats.md §5 (drops from 90%, in points)', () => {
    const table: [number, number[]][] = [[5, [77, 45, 33, 22]], [10, [56, 30, 22, 15]], [20, [38, 20, 15, 10]], [50, [22, 12, 9, 6]], [100, [15, 8, 6, 4]], [200, [10, 5, 4, 3]]]
    for (const [scenarios, drops] of table) {
      const computed = [1, 3, 5, 10].map((k) => Math.round(minimumDetectableDrop(0.9, scenarios * k)! * 100))
      assert.deepEqual(computed, drops, `S = ${scenarios}`)
    }
  })

  test('matches the arcsine formula evaluated with scipy’s normal quantiles', () => {
    assertClose(minimumDetectableDrop(0.9, 60)!, 0.19803993205641923, 1e-12)
    assertClose(minimumDetectableDrop(0.9, 5)!, 0.773847086350281, 1e-12)
    assert.equal(Z_80, 0.8416212335729143)
  })

  test('is null when not even a drop to 0% would register, or with no attempts', () => {
    assert.equal(minimumDetectableDrop(0.1, 5), null)
    assert.equal(minimumDetectableDrop(0.9, 0), null)
  })
})

describe('flaggableScenarioDrop', () => {
  test('k/k → j/k with one-sided p ≤ 0.05: none at k ≤ 2, 0/3, 0/4, 1/5, 2/6, 6/10, 15/20', () => {
    assert.deepEqual([1, 2, 3, 4, 5, 6, 10, 20].map((k) => flaggableScenarioDrop(k, 0.05)), [null, null, 0, 0, 1, 2, 6, 15])
  })
})
