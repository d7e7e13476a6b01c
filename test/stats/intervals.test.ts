import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { newcombeInterval, wilsonInterval, Z_95 } from '../../src/base/stats/intervals.ts'
import { assertClose } from './exact-arithmetic.ts'

describe('wilsonInterval', () => {
  // Wilson's formula evaluated by scipy/numpy with z = norm.ppf(0.975).
  const expected: [number, number, number, number][] = [
    [3, 3, 0.4385029682449545, 1],
    [5, 5, 0.5655175352168252, 1],
    [10, 10, 0.7224672001371106, 1],
    [56, 70, 0.6918335550374693, 0.8769526075163705],
    [48, 80, 0.49045465005160394, 0.7003817240412905],
    [0, 5, 0, 0.43448246478317476],
    [1, 7, 0.025679624344743555, 0.5131278292743189],
  ]

  test('matches the reference limits to 1e-12', () => {
    for (const [passed, total, lower, upper] of expected) {
      const interval = wilsonInterval(passed, total)
      assertClose(interval.lower, lower, 1e-12, `${passed}/${total} lower`)
      assertClose(interval.upper, upper, 1e-12, `${passed}/${total} upper`)
    }
  })

  test('gives stats.md’s scale: 3/3 → [0.44, 1], 5/5 → [0.57, 1], 10/10 → [0.72, 1]', () => {
    const shown = (passed: number, total: number) => {
      const { lower, upper } = wilsonInterval(passed, total)
      return [lower.toFixed(2), upper.toFixed(0)]
    }
    assert.deepEqual(shown(3, 3), ['0.44', '1'])
    assert.deepEqual(shown(5, 5), ['0.57', '1'])
    assert.deepEqual(shown(10, 10), ['0.72', '1'])
  })

  test('is exactly 1 at n/n and 0 at 0/n, and spans everything with no attempts', () => {
    assert.equal(wilsonInterval(10, 10).upper, 1)
    assert.equal(wilsonInterval(0, 10).lower, 0)
    assert.deepEqual(wilsonInterval(0, 0), { lower: 0, upper: 1 })
  })

  test('uses the 97.5% normal quantile', () => {
    assert.equal(Z_95, 1.959963984540054)
  })
})

describe('newcombeInterval', () => {
  test('Newcombe’s worked example: 56/70 vs 48/80 → [0.0524, 0.3339]', () => {
    const interval = newcombeInterval({ rate: 56 / 70, total: 70 }, { rate: 48 / 80, total: 80 })
    assert.equal(interval.lower.toFixed(4), '0.0524')
    assert.equal(interval.upper.toFixed(4), '0.3339')
    assertClose(interval.lower, 0.05243147240236498, 1e-12)
    assertClose(interval.upper, 0.333872654036906, 1e-12)
  })

  test('stats.md example A: 89/100 → 82/100, [−16.9, +2.9] pp', () => {
    const interval = newcombeInterval({ rate: 0.82, total: 100 }, { rate: 0.89, total: 100 })
    assert.equal((interval.lower * 100).toFixed(1), '-16.9')
    assert.equal((interval.upper * 100).toFixed(1), '2.9')
    assertClose(interval.lower, -0.16881586593957312, 1e-12)
    assertClose(interval.upper, 0.028956477848623693, 1e-12)
  })

  test('stats.md example B: 95/100 → 90/100, [−13.0, +2.6] pp', () => {
    const interval = newcombeInterval({ rate: 0.9, total: 100 }, { rate: 0.95, total: 100 })
    assert.equal((interval.lower * 100).toFixed(1), '-13.0')
    assert.equal((interval.upper * 100).toFixed(1), '2.6')
  })

  test('is antisymmetric: swapping the groups mirrors the interval', () => {
    const forward = newcombeInterval({ rate: 0.3, total: 20 }, { rate: 0.7, total: 30 })
    const backward = newcombeInterval({ rate: 0.7, total: 30 }, { rate: 0.3, total: 20 })
    assertClose(forward.lower, -backward.upper, 1e-12)
    assertClose(forward.upper, -backward.lower, 1e-12)
  })
})
