import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { globToRegExp, parseShard, planAttempts, selectScenarios } from '../../src/play/runner/select-scenarios.ts'
import type { Scenario } from '../../src/records/scenario/scenario.ts'

const scenario = (id: string, tags: string[] = []): Scenario => ({ id, file: `${id}.yml`, maxTurns: 8, script: ['hi'], judge: [], checks: [{ kind: 'contains', value: 'x' }], tags })
const suite = [scenario('billing-refund', ['billing']), scenario('billing-invoice', ['billing', 'slow']), scenario('backup', ['ops']), scenario('greeting')]

describe('selecting and planning attempts', () => {
  test('globs match ids, case-insensitively, with * and ?', () => {
    assert.ok(globToRegExp('billing-*').test('billing-refund'))
    assert.ok(globToRegExp('B?CKUP').test('backup'))
    assert.ok(!globToRegExp('billing').test('billing-refund'))
    assert.ok(globToRegExp('a.b').test('a.b') && !globToRegExp('a.b').test('axb'))
  })

  test('globs and tags combine: any glob, and any tag', () => {
    assert.deepEqual(selectScenarios(suite, { globs: ['billing-*', 'backup'], tags: [] }).map((s) => s.id), ['billing-refund', 'billing-invoice', 'backup'])
    assert.deepEqual(selectScenarios(suite, { globs: ['billing-*'], tags: ['slow'] }).map((s) => s.id), ['billing-invoice'])
    assert.throws(() => selectScenarios(suite, { globs: ['nothing*'], tags: [] }), /no scenario matches --scenarios nothing\*/)
  })

  test('k attempts per scenario in a stable order', () => {
    const plan = planAttempts(suite, 2, null)
    assert.equal(plan.length, 8)
    assert.deepEqual(plan.slice(0, 3).map((p) => `${p.scenario.id}#${p.attempt}`), ['backup#1', 'backup#2', 'billing-invoice#1'])
  })

  test('shards are balanced, disjoint, and together exactly the whole run', () => {
    const whole = planAttempts(suite, 5, null).map((p) => `${p.scenario.id}#${p.attempt}`)
    const shards = [1, 2, 3].map((index) => planAttempts(suite, 5, { index, total: 3 }).map((p) => `${p.scenario.id}#${p.attempt}`))
    const sizes = shards.map((s) => s.length)
    assert.ok(Math.max(...sizes) - Math.min(...sizes) <= 1, `sizes ${sizes.join(',')}`)
    assert.deepEqual(shards.flat().sort(), [...whole].sort())
    assert.equal(new Set(shards.flat()).size, whole.length)
  })

  test("each scenario's own attempts (a plan from the history): shards still split it exactly", () => {
    const own: Record<string, number> = { backup: 7, 'billing-invoice': 15, 'billing-refund': 10, greeting: 1 }
    const whole = planAttempts(suite, (id) => own[id]!, null).map((p) => `${p.scenario.id}#${p.attempt}`)
    assert.equal(whole.length, 33)
    assert.deepEqual(whole.filter((w) => w.startsWith('backup#')), ['backup#1', 'backup#2', 'backup#3', 'backup#4', 'backup#5', 'backup#6', 'backup#7'])
    for (const total of [2, 4, 5]) {
      const shards = Array.from({ length: total }, (_, i) => planAttempts(suite, (id) => own[id]!, { index: i + 1, total }).map((p) => `${p.scenario.id}#${p.attempt}`))
      const sizes = shards.map((s) => s.length)
      assert.ok(Math.max(...sizes) - Math.min(...sizes) <= 1, `sizes ${sizes.join(',')}`)
      assert.deepEqual(shards.flat().sort(), [...whole].sort())
    }
  })

  test('--shard is checked', () => {
    assert.deepEqual(parseShard('2/4'), { index: 2, total: 4 })
    for (const bad of ['0/4', '5/4', '1', 'a/b', '1/0']) assert.throws(() => parseShard(bad), /expected I\/N/)
  })
})
