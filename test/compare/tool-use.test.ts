import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import type { Attempt, ToolCall, Verdict } from '../../src/records/journal/records.ts'
import { tallyRecord, type RunRecord } from '../../src/records/tally/run-tally.ts'
import { compareRuns } from '../../src/verdict/compare-runs.ts'
import { assertClose, exactFisher } from '../stats/exact-arithmetic.ts'
import { attempt, manifest, scenario } from './run-builder.ts'

/**
 * Tool-use changes in a comparison: per scenario, a tool called in fewer or more attempts, a new
 * one, an argument whose value changed; with one-sided Fisher per direction and Tarone's correction,
 * as the pass rates. Every attempt here passes: the tools changed, the verdicts did not.
 */
const now = new Date('2026-03-02T00:00:00Z')

function withCalls(id: string, n: number, calls: ToolCall[], verdict: Verdict = 'passed'): Attempt {
  const base = attempt(id, n, verdict)
  return { ...base, turns: [base.turns[0]!, { ...base.turns[1]!, ...(calls.length ? { toolCalls: calls } : {}) }] }
}

/** A run of the given scenarios, each attempt's calls given by `calls(scenario, attempt number)`. */
function run(ids: string[], calls: (id: string, n: number) => ToolCall[], k = 5, verdict: (n: number) => Verdict = () => 'passed'): RunRecord {
  return { manifest: manifest({ scenarios: ids.map((id) => scenario(id)) }), attempts: ids.flatMap((id) => Array.from({ length: k }, (_, i) => withCalls(id, i + 1, calls(id, i + 1), verdict(i + 1)))) }
}

const compare = (before: RunRecord, after: RunRecord) => compareRuns(tallyRecord(before), tallyRecord(after), { now })
const lookup = (id = '4321'): ToolCall => ({ name: 'get_order', arguments: { id } })
const refund = (amount: number): ToolCall => ({ name: 'refund', arguments: { order: '4321', amount } })

describe('tool use in a comparison', () => {
  test('a call made in 5/5 attempts and now in 0/5 is dropped, beyond noise; its arguments are not told again', () => {
    const ids = ['orders', 'greeting', 'billing']
    const before = run(ids, (id) => (id === 'orders' ? [lookup(), refund(20)] : []))
    const after = run(ids, (id) => (id === 'orders' ? [refund(20)] : []))
    const c = compare(before, after)
    assert.equal(c.verdict, 'within-noise', 'the pass rates did not move')
    assert.deepEqual(c.toolUse.scenarios.map((s) => s.id), ['orders'])
    const [change, ...rest] = c.toolUse.scenarios[0]!.changes
    assert.deepEqual(rest, [])
    assert.deepEqual({ ...change, p: 0 }, { tool: 'get_order', kind: 'dropped', argument: null, before: { attempts: 5, of: 5 }, after: { attempts: 0, of: 5 }, p: 0, significant: true })
    assertClose(change!.p, exactFisher(0, 5, 5, 5).less, 1e-12)
  })

  test('a new tool, and an argument whose value changed in every attempt', () => {
    const before = run(['orders'], () => [refund(20)])
    const after = run(['orders'], () => [{ name: 'search', arguments: { q: 'order' } }, refund(25)])
    const changes = compare(before, after).toolUse.scenarios[0]!.changes
    assert.deepEqual(
      changes.map((c) => [c.tool, c.kind, c.argument, `${c.before.attempts}/${c.before.of} → ${c.after.attempts}/${c.after.of}`, c.significant]),
      [
        ['search', 'new', null, '0/5 → 5/5', true],
        ['refund', 'arguments', { key: 'amount', before: '20', after: '25' }, '5/5 → 0/5', true],
      ],
    )
  })

  test('noise is not a change: 4/5 → 3/5 lists nothing; 3/3 → 0/3 (p = 0.05) is a possible change, never beyond noise', () => {
    assert.deepEqual(compare(run(['a'], (_, n) => (n <= 4 ? [lookup()] : [])), run(['a'], (_, n) => (n <= 3 ? [lookup()] : []))).toolUse.scenarios, [])
    const ids = ['a', 'b']
    const c = compare(run(ids, () => [{ name: 'get_order' }], 3), run(ids, () => [], 3))
    assert.deepEqual(c.toolUse.scenarios.map((s) => [s.id, s.changes.map((x) => [x.kind, x.significant])]), [['a', [['dropped', false]]], ['b', [['dropped', false]]]])
    assertClose(c.toolUse.scenarios[0]!.changes[0]!.p, 0.05, 1e-9)
    assert.equal(c.toolUse.corrections.fewer.threshold, 0.025)
  })

  test('attempts that broke off (agent errors) are not counted as attempts that skipped the tool', () => {
    const before = run(['orders'], () => [lookup()])
    const after = run(['orders'], (_, n) => (n <= 2 ? [lookup()] : []), 5, (n) => (n <= 2 ? 'passed' : 'agent_error'))
    const c = compare(before, after)
    assert.deepEqual(c.toolUse.scenarios, [], '2/2 of the attempts that ended called it')
  })

  test('key order does not make two values of one argument', () => {
    const before = run(['a'], () => [{ name: 'book', arguments: { when: { day: 'mon', hour: 9 } } }])
    const after = run(['a'], () => [{ name: 'book', arguments: { when: { hour: 9, day: 'mon' } } }])
    assert.deepEqual(compare(before, after).toolUse.scenarios, [])
  })
})
