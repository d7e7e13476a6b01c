import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { judgeNoise } from '../../src/base/stats/judge-noise.ts'

const of = (passes: number[], samples = 5) => passes.map((p) => ({ passes: p, samples }))
const close = (actual: number, expected: number, digits = 1e-12) => assert.ok(Math.abs(actual - expected) <= digits, `${actual} ≠ ${expected}`)

describe('judge noise against agent flakiness, on stats.md §4’s worked examples (m = 5, 5 attempts)', () => {
  test('j = [5, 5, 0, 0, 5]: a flaky agent, a consistent judge', () => {
    const noise = judgeNoise(of([5, 5, 0, 0, 5]))!
    close(noise.judgeNoise, 0)
    close(noise.agentFlakiness, 0.3)
    assert.equal(noise.unstable, false)
  })

  test('j = [3, 2, 3, 2, 4]: an unstable judge (flip rate 56%)', () => {
    const noise = judgeNoise(of([3, 2, 3, 2, 4]))!
    close(noise.judgeNoise, 0.28)
    close(noise.flipRate, 0.56)
    close(noise.agentFlakiness, 0)
    assert.equal(noise.unstable, true)
  })

  test('j = [5, 4, 0, 1, 5]: mostly the agent', () => {
    const noise = judgeNoise(of([5, 4, 0, 1, 5]))!
    close(noise.judgeNoise, 0.08)
    close(noise.agentFlakiness, 0.204)
    assert.equal(noise.unstable, false)
  })

  test('a single judgement per attempt tells nothing apart', () => {
    assert.equal(judgeNoise(of([1, 0, 1], 1)), null)
  })
})
