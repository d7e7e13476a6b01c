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

  test('issue 21: a broken agent judged m = 3 with one stray vote is unstable on its own attempts, not on both runs pooled', () => {
    // The PR's five attempts of a scenario that broke: votes [1,0,0] once, [0,0,0] four times.
    const broken = [{ passes: 1, samples: 3 }, ...Array.from({ length: 4 }, () => ({ passes: 0, samples: 3 }))]
    const alone = judgeNoise(broken)!
    close(alone.judgeNoise, 1 / 15)
    close(alone.agentFlakiness, 0)
    assert.equal(alone.unstable, true, 'the old rule: Ĵ = 0.067 > Â = 0')
    // Pooled with the baseline's five passes judged once: the dialogues differ far more than the judge wavers.
    const pooled = judgeNoise([...broken, ...Array.from({ length: 5 }, () => ({ passes: 1, samples: 1 }))])!
    close(pooled.judgeNoise, 1 / 15)
    assert.ok(pooled.agentFlakiness > 0.2, String(pooled.agentFlakiness))
    assert.equal(pooled.unstable, false)
  })

  test('pooled, a judge that wavers on every dialogue of both runs is still unstable', () => {
    const wavering = judgeNoise([...of([2, 1, 2, 1, 2], 3), ...of([1, 2, 1, 1, 2], 3)])!
    assert.equal(wavering.unstable, true)
  })
})
