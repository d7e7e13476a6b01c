import assert from 'node:assert/strict'
import { test } from 'node:test'
import { ADAPTIVE_LEVELS, adaptiveCounts, adaptiveLook, adaptiveLooks, nextLook, type AdaptiveScenario } from '../../src/verdict/adaptive-rule.ts'

const P = { k: 3, maxAttempts: 10, ...ADAPTIVE_LEVELS }
const side = (passed: number, total: number) => ({ passed, total })
const at = (id: string, before: [number, number], after: [number, number], played = after[1]): AdaptiveScenario => ({ id, before: side(...before), after: side(...after), played })
const step = (scenarios: AdaptiveScenario[], id: string, p = P) => adaptiveLook(scenarios, p).get(id)

test('the looks double from k up to the ceiling: 3, 6, 10; 5, 10', () => {
  assert.deepEqual(adaptiveLooks(3, 10), [3, 6, 10])
  assert.deepEqual(adaptiveLooks(5, 10), [5, 10])
  assert.deepEqual(adaptiveLooks(10, 10), [10])
  assert.equal(nextLook(3, 3, 10), 6)
  assert.equal(nextLook(10, 3, 10), null)
})

test('a scenario the baseline always passed and that passed every attempt so far stops as decided after the first round', () => {
  assert.deepEqual(step([at('a', [10, 10], [3, 3])], 'a'), { next: null, stopped: 'decided' })
})

test('a flaky scenario keeps playing to the ceiling, then is undecided when it passes less often than the baseline', () => {
  assert.deepEqual(step([at('f', [5, 10], [3, 3])], 'f'), { next: 6, stopped: null })
  assert.deepEqual(step([at('f', [5, 10], [2, 6])], 'f'), { next: 10, stopped: null })
  assert.deepEqual(step([at('f', [5, 10], [4, 10])], 'f'), { next: null, stopped: 'undecided' })
  assert.deepEqual(step([at('f', [5, 10], [5, 10])], 'f'), { next: null, stopped: 'decided' })
})

test('Worse early only by the collapse rule or under α·t³: 10/10 → 0/3 plays on, 10/10 → 0/5 is Worse, 10/10 → 0/6 too', () => {
  // 0/3: one-sided p = 1/286 = 0.0035, over 0.02 · 0.3³ = 0.00054; no collapse before 5 attempts.
  assert.deepEqual(step([at('b', [10, 10], [0, 3])], 'b'), { next: 6, stopped: null })
  assert.deepEqual(step([at('b', [10, 10], [0, 5])], 'b', { ...P, k: 5 }), { next: null, stopped: 'worse' })
  assert.deepEqual(step([at('b', [10, 10], [0, 6])], 'b'), { next: null, stopped: 'worse' })
})

test('while the pooled test leans worse, a stable-looking scenario keeps playing; a scenario the baseline never passed stops', () => {
  const leaning = [at('a', [10, 10], [3, 3]), ...['x', 'y', 'z'].map((id) => at(id, [9, 10], [1, 3]))]
  assert.equal(step(leaning, 'a')!.next, 6)
  assert.deepEqual(step([at('n', [0, 10], [0, 3]), ...leaning], 'n'), { next: null, stopped: 'decided' })
})

test('the pooled test under 1%·t³ stops every scenario', () => {
  const all = Array.from({ length: 8 }, (_, i) => at(`s${i}`, [10, 10], [1, 6]))
  const steps = adaptiveLook([...all, at('a', [10, 10], [6, 6])], P)
  assert.deepEqual(steps.get('a'), { next: null, stopped: 'pooled-worse' })
})

test('a scenario without a verdict yet plays on; one missing from the baseline plays k and stops', () => {
  assert.deepEqual(step([at('q', [10, 10], [0, 0], 3)], 'q'), { next: 6, stopped: null })
  assert.deepEqual(step([at('new', [0, 0], [3, 3])], 'new'), { next: null, stopped: 'no-baseline' })
})

test('counts as the comparison counts: agent errors fail, attempts without a verdict and user errors are out', () => {
  assert.deepEqual(adaptiveCounts(['passed', 'failed', 'agent_error', 'no_verdict', 'user_error', 'not_decided']), { counts: side(1, 3), decided: side(1, 2) })
})
