import assert from 'node:assert/strict'
import { readFile } from 'node:fs/promises'
import { describe, test } from 'node:test'
import type { ToolCall } from '../../src/play/agents/agent.ts'
import { limitToolCalls, MAX_TOOL_JSON_CHARS } from '../../src/play/agents/reply-limit.ts'
import { runChecks } from '../../src/play/judge/checks.ts'
import { parseYamlFile } from '../../src/base/input/yaml-file.ts'
import { parseScenario } from '../../src/records/scenario/load-scenarios.ts'
import { scenarioFingerprint, type Check } from '../../src/records/scenario/scenario.ts'

/**
 * The tool checks on their own: how `args` compares (a subset, nested the same way), what each
 * detail names, and how scenario files write them. The protocols' side is in
 * test/agents/protocol-contract.ts, against each protocol's server.
 */
const refund = (args: unknown): ToolCall => ({ name: 'refund', arguments: args })
const lookup: ToolCall = { name: 'get_order', arguments: { id: '1234' } }

async function decide(check: Check, calls: ToolCall[][]) {
  const [result] = await runChecks([check], calls.map((_, i) => `answer ${i + 1}`), calls)
  return [result!.pass, result!.detail]
}

describe('tool_called with args', () => {
  const args = { order: { id: '1234', lines: [{ sku: 'A', qty: 2 }] }, amount: 20 }

  test('holds when some call has every key given, with equal values, nested objects and arrays alike; other keys may be there', async () => {
    const call = refund({ order: { id: '1234', lines: [{ sku: 'A', qty: 2, note: 'extra keys are fine' }], channel: 'web' }, amount: 20, reason: 'late' })
    assert.deepEqual(await decide({ kind: 'tool_called', value: 'refund', args }, [[lookup], [call]]), [true, 'answer 2 called it with these arguments'])
  })

  test('a failed check names the closest call and what differed', async () => {
    const calls = [[lookup, refund({ order: { id: '9999', lines: [] }, amount: 20 })], [refund({ order: { id: '1234', lines: [{ sku: 'A', qty: '2' }] }, amount: 20 })]]
    assert.deepEqual(await decide({ kind: 'tool_called', value: 'refund', args }, calls), [false, 'called 2 times, never with these arguments; the closest, at answer 2: `order.lines.0.qty` is "2" (text), expected 2'])
    assert.deepEqual(await decide({ kind: 'tool_called', value: 'refund', args: { amount: 25, currency: 'EUR' } }, [[refund({ amount: 20 })]]), [
      false,
      'called once, never with these arguments; at answer 1: `amount` is 20, expected 25 (and 1 more difference)',
    ])
    assert.deepEqual(await decide({ kind: 'tool_called', value: 'refund', args: { order: { lines: [1] } } }, [[refund({ order: { lines: [1, 2] } })]]), [
      false,
      'called once, never with these arguments; at answer 1: `order.lines` has 2 items, expected 1: [1,2]',
    ])
    assert.deepEqual(await decide({ kind: 'tool_called', value: 'refund', args: { id: 1 } }, [[refund('id=1')]]), [false, 'called once, never with these arguments; at answer 1: the arguments are "id=1", not a mapping'])
    assert.deepEqual(await decide({ kind: 'tool_called', value: 'refund', args: { id: 1 } }, [[lookup]]), [false, 'no answer called it (tools called: get_order)'])
  })

  test('a check without args keeps its old detail', async () => {
    assert.deepEqual(await decide({ kind: 'tool_called', value: 'refund' }, [[lookup], [refund({})]]), [true, 'answer 2 called it'])
  })
})

describe('tool_order and max_tool_calls', () => {
  test('an order holds with other calls between; a broken one says where it lost the thread', async () => {
    const calls = [[lookup, { name: 'search' }], [refund({})]]
    assert.deepEqual(await decide({ kind: 'tool_order', value: ['get_order', 'refund'] }, calls), [true, 'in this order: get_order (answer 1), refund (answer 2)'])
    assert.deepEqual(await decide({ kind: 'tool_order', value: ['refund', 'get_order'] }, calls), [false, 'get_order was called at answer 1, but not after refund (answer 2); the calls in order: get_order, search, refund'])
    assert.deepEqual(await decide({ kind: 'tool_order', value: ['get_order', 'search', 'email'] }, calls), [false, 'email was never called after search (answer 1, call 2) or before; the calls in order: get_order, search, refund'])
    assert.deepEqual(await decide({ kind: 'tool_order', value: ['a', 'b'] }, []), [false, 'the agent gave no answer'])
  })

  test('max_tool_calls counts every call of the attempt, and names them by tool', async () => {
    const calls = [[lookup, lookup], [refund({})]]
    assert.deepEqual(await decide({ kind: 'max_tool_calls', value: 3 }, calls), [true, '3 tool calls, at most 3 allowed: get_order ×2, refund ×1'])
    assert.deepEqual(await decide({ kind: 'max_tool_calls', value: 2 }, calls), [false, '3 tool calls, more than 2: get_order ×2, refund ×1'])
    assert.deepEqual(await decide({ kind: 'max_tool_calls', value: 0 }, [[], []]), [true, 'no tool call (the agent made none, or its protocol does not show them)'])
  })
})

describe('in scenario files', () => {
  const file = (checks: string) => parseYamlFile('s.yml', `script: [hi]\nchecks:\n${checks}`)

  test('args, tool_order and max_tool_calls are read; args is part of the scenario’s fingerprint', async () => {
    const scenario = parseScenario(await file('  - tool_called: refund\n    args: { order: { id: "1234" }, amount: 20 }\n  - tool_order: [get_order, refund]\n  - max_tool_calls: 3\n'), 's')
    assert.deepEqual(scenario.checks, [
      { kind: 'tool_called', value: 'refund', args: { order: { id: '1234' }, amount: 20 } },
      { kind: 'tool_order', value: ['get_order', 'refund'] },
      { kind: 'max_tool_calls', value: 3 },
    ])
    const other = parseScenario(await file('  - tool_called: refund\n    args: { order: { id: "1234" }, amount: 25 }\n  - tool_order: [get_order, refund]\n  - max_tool_calls: 3\n'), 's')
    assert.notEqual(scenarioFingerprint(scenario), scenarioFingerprint(other))
  })

  test('the checks in docs/tool-checks.md are read as written', async () => {
    const page = await readFile(new URL('../../docs/tool-checks.md', import.meta.url), 'utf8')
    const block = /```yaml\n([\s\S]*?)```/.exec(page)![1]!
    const scenario = parseScenario(await parseYamlFile('docs.yml', `script: [hi]\n${block}`), 'docs')
    assert.deepEqual(scenario.checks.map((c) => c.kind), ['tool_called', 'tool_called', 'tool_not_called', 'tool_order', 'max_tool_calls'])
    assert.deepEqual(scenario.checks[1], { kind: 'tool_called', value: 'issue_refund', args: { order_id: '88231', reason: 'late' } })
  })

  test('mistakes name the file, the line and what was expected', async () => {
    const cases: [string, RegExp][] = [
      ['  - contains: x\n    args: { a: 1 }\n', /^s\.yml:4: checks\.0: `args` goes with `tool_called`/],
      ['  - tool_called: refund\n    args: 20\n', /^s\.yml:4: checks\.0\.args: expected a mapping of argument names to values/],
      ['  - tool_order: [refund]\n', /^s\.yml:3: checks\.0\.tool_order: an order needs two tools or more; for one, write `tool_called:`/],
      ['  - tool_order: refund\n', /^s\.yml:3: checks\.0\.tool_order: expected a list of tool names/],
      ['  - max_tool_calls: -1\n', /^s\.yml:3: checks\.0\.max_tool_calls: expected a whole number, 0 or more .*not -1/],
      ['  - max_tool_calls: 3\n    fatal: true\n', /^s\.yml:4: checks\.0: `fatal` ends the attempt .*`max_tool_calls` is decided on the whole conversation/],
    ]
    for (const [checks, message] of cases) {
      const parsed = await file(checks)
      assert.throws(() => parseScenario(parsed, 's'), (error: Error) => message.test(error.message), checks)
    }
  })
})

describe('what is kept of tool calls', () => {
  test('arguments and results past the limit are kept as the start of their JSON, marked', () => {
    const [call] = limitToolCalls([{ name: 'export', arguments: { q: 'all' }, result: { rows: 'x'.repeat(MAX_TOOL_JSON_CHARS) } }])
    assert.deepEqual(call?.arguments, { q: 'all' })
    assert.match(String(call?.result), /^\{"rows":"x+… \[cut by convy-ci: 16,011 characters\]$/)
    assert.equal(String(call?.result).length, MAX_TOOL_JSON_CHARS + '… [cut by convy-ci: 16,011 characters]'.length)
  })

  test('past 100 calls in one answer, the rest are counted, not kept', () => {
    const calls = limitToolCalls(Array.from({ length: 103 }, (_, i) => ({ name: `t${i}` })))
    assert.equal(calls.length, 101)
    assert.equal(calls.at(-1)?.name, '[cut by convy-ci: 3 more tool calls in this answer]')
  })
})
