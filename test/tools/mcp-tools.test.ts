import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { McpError } from '@modelcontextprotocol/sdk/types.js'
import { parseYamlFile } from '../../src/base/input/yaml-file.ts'
import { loadSchemaChecker } from '../../src/records/scenario/tool-input.ts'
import { parseScenario } from '../../src/records/scenario/load-scenarios.ts'
import type { Scenario } from '../../src/records/scenario/scenario.ts'
import type { Turn } from '../../src/records/journal/records.ts'
import { openAttemptTools, type AttemptTools } from '../../src/play/tools/attempt-tools.ts'
import { REFUND_TOOLS } from './scenario-tools.ts'

// The tools one attempt serves, through the official MCP client over 127.0.0.1 and in-process.

async function scenario(extra = ''): Promise<Scenario> {
  await loadSchemaChecker()
  return parseScenario(parseYamlFile('refund.yml', `id: refund\nscript: [hi]\ncontext: { other_order: O-99 }\n${REFUND_TOOLS}${extra}`), 'refund')
}

async function open(s: Scenario, attempt = 1, turns: Turn[] = []): Promise<AttemptTools> {
  const tools = await openAttemptTools(s, attempt, { context: () => ({ other_order: 'O-99', customer: 'Ada' }), at: () => 1.5, turns })
  assert.ok(tools)
  return tools
}

async function client(url: string): Promise<Client> {
  const c = new Client({ name: 'test-agent', version: '1.0.0' })
  await c.connect(new StreamableHTTPClientTransport(new URL(url)))
  return c
}

function json(result: unknown): unknown {
  const content = (result as { content: { text: string }[] }).content
  return JSON.parse(content[0]!.text)
}

describe("a scenario's tools over MCP", () => {
  test('listed with their JSON Schemas (the short form expanded); answers chosen by the arguments; a fault on call 1 only; the state read after a write; every call recorded', async () => {
    const s = await scenario()
    const turns: Turn[] = [{ role: 'user', text: 'hi', seconds: 0, tokens: null, error: null }]
    const tools = await open(s, 1, turns)
    const c = await client(tools.url)
    try {
      assert.match(tools.url, /^http:\/\/127\.0\.0\.1:\d+\/mcp$/)
      const listed = await c.listTools()
      assert.deepEqual(
        listed.tools.map((t) => [t.name, t.inputSchema]),
        [
          ['get_order', { type: 'object', properties: { order_id: { type: 'string' } }, required: ['order_id'] }],
          ['create_refund', { type: 'object', properties: { order_id: { type: 'string' }, reason: { type: 'string' } }, required: ['order_id'] }],
          ['open_ticket', { type: 'object', properties: { topic: { type: 'string' } }, required: ['topic'] }],
        ],
      )
      const first = await c.callTool({ name: 'get_order', arguments: { order_id: 'O-17' } })
      assert.deepEqual([first.isError, (first.content as { text: string }[])[0]!.text], [true, 'upstream timeout'])
      const second = await c.callTool({ name: 'get_order', arguments: { order_id: 'O-17' } })
      assert.deepEqual([second.isError, second.structuredContent], [undefined, { status: 'delayed', refund: null }])
      assert.deepEqual(json(await c.callTool({ name: 'get_order', arguments: { order_id: 'O-99' } })), { status: 'delivered', customer: 'Ada' })
      assert.deepEqual(json(await c.callTool({ name: 'get_order', arguments: { order_id: 'X-1' } })), { status: 'unknown', asked: 'X-1' })
      assert.deepEqual(json(await c.callTool({ name: 'create_refund', arguments: { order_id: 'O-17', reason: 'late' } })), { refund_id: 'R-O-17' })
      // The agent sees its own change.
      assert.deepEqual(json(await c.callTool({ name: 'get_order', arguments: { order_id: 'O-17' } })), { status: 'delayed', refund: 'requested' })
      const refused = await c.callTool({ name: 'create_refund', arguments: { order_id: 17 } })
      assert.equal(refused.isError, true)
      assert.match((refused.content as { text: string }[])[0]!.text, /do not match create_refund's input schema: .*order_id must be string/)

      const record = tools.record()
      assert.deepEqual(
        record.calls.map((call) => [call.name, call.arguments, call.result ?? null, call.error ?? null, call.fault ?? null, call.turn, call.at]),
        [
          ['get_order', { order_id: 'O-17' }, null, 'upstream timeout', 'call 1: error "upstream timeout"', 1, 1.5],
          ['get_order', { order_id: 'O-17' }, { status: 'delayed', refund: null }, null, null, 1, 1.5],
          ['get_order', { order_id: 'O-99' }, { status: 'delivered', customer: 'Ada' }, null, null, 1, 1.5],
          ['get_order', { order_id: 'X-1' }, { status: 'unknown', asked: 'X-1' }, null, null, 1, 1.5],
          ['create_refund', { order_id: 'O-17', reason: 'late' }, { refund_id: 'R-O-17' }, null, null, 1, 1.5],
          ['get_order', { order_id: 'O-17' }, { status: 'delayed', refund: 'requested' }, null, null, 1, 1.5],
          ['create_refund', { order_id: 17 }, null, "the arguments do not match create_refund's input schema: data/order_id must be string", null, 1, 1.5],
        ],
      )
      assert.deepEqual(record.state, { refunds: { 'O-17': 'requested' } })
    } finally {
      await c.close()
      await tools.close()
    }
  })

  test('tools_host: listening on one address, the agent told another name for it', async () => {
    const tools = await openAttemptTools(await scenario(), 1, { context: () => ({}), at: () => 0, turns: [], listen: { bind: '127.0.0.1', advertise: 'localhost' } })
    assert.ok(tools)
    const c = await client(tools.url)
    try {
      assert.match(tools.url, /^http:\/\/localhost:\d+\/mcp$/)
      assert.equal((await c.listTools()).tools.length, 3)
    } finally {
      await c.close()
      await tools.close()
    }
  })

  test('a tool the scenario does not define: an MCP error that names its tools, recorded', async () => {
    const tools = await open(await scenario())
    const c = await client(tools.url)
    try {
      await assert.rejects(c.callTool({ name: 'delete_order', arguments: { order_id: 'O-17' } }), (error: unknown) => {
        assert.ok(error instanceof McpError)
        assert.equal(error.code, -32602)
        assert.match(error.message, /no tool "delete_order" in this scenario; its tools: get_order, create_refund, open_ticket/)
        return true
      })
      assert.deepEqual(tools.record().calls.map((call) => [call.name, call.error]), [['delete_order', 'no tool "delete_order" in this scenario; its tools: get_order, create_refund, open_ticket']])
      // Between answers (no user line yet), a call has no turn.
      assert.equal(tools.record().calls[0]!.turn, undefined)
    } finally {
      await c.close()
      await tools.close()
    }
  })

  test('a rate fault is drawn from the seed of the scenario and the attempt: the same attempt draws the same, another differs', async () => {
    const s = await scenario()
    const draws = async (attempt: number) => {
      const tools = await open(s, attempt)
      const c = await client(tools.url)
      try {
        for (let i = 0; i < 12; i++) await c.callTool({ name: 'open_ticket', arguments: { topic: 'late' } })
        return { seed: tools.record().seed, hits: tools.record().calls.map((call) => (call.fault ? 1 : 0)).join('') }
      } finally {
        await c.close()
        await tools.close()
      }
    }
    const one = await draws(1)
    const again = await draws(1)
    const two = await draws(2)
    assert.deepEqual(again, one)
    assert.notEqual(two.seed, one.seed)
    assert.notEqual(two.hits, one.hits)
    // About half of the calls, not none and not all.
    assert.match(one.hits, /1/)
    assert.match(one.hits, /0/)
  })

  test('in-process: the same answers, faults, state and record as over MCP; an unknown tool throws naming the tools', async () => {
    const tools = await open(await scenario())
    try {
      assert.deepEqual((await tools.tools.call('get_order', { order_id: 'O-17' })).isError, true)
      await tools.tools.call('create_refund', { order_id: 'O-17' })
      assert.deepEqual((await tools.tools.call('get_order', { order_id: 'O-17' })).structuredContent, { status: 'delayed', refund: 'requested' })
      await assert.rejects(tools.tools.call('nope'), /no tool "nope" in this scenario; its tools: get_order, create_refund, open_ticket/)
      assert.deepEqual(tools.record().calls.map((call) => call.name), ['get_order', 'create_refund', 'get_order', 'nope'])
      assert.deepEqual(tools.tools.list().map((t) => t.name), ['get_order', 'create_refund', 'open_ticket'])
    } finally {
      await tools.close()
    }
  })

  test('end state: decided on the served calls and the world, passing and failing with what was found', async () => {
    const tools = await open(await scenario())
    try {
      assert.deepEqual(
        tools.endState().map((c) => [c.kind, c.value, c.pass, c.detail]),
        [
          ['state', 'refunds.O-17 = "requested"', false, 'refunds.O-17 was never set (the state: {})'],
          ['called', 'create_refund {"order_id":"O-17"} × 1', false, 'create_refund was called 0 times with these arguments, expected once'],
          ['never', 'open_ticket', true, 'open_ticket was not called'],
        ],
      )
      await tools.tools.call('create_refund', { order_id: 'O-17', reason: 'late' })
      await tools.tools.call('open_ticket', { topic: 'refund' })
      assert.deepEqual(
        tools.endState().map((c) => [c.pass, c.detail]),
        [
          [true, 'refunds.O-17 is "requested"'],
          [true, 'create_refund was called once with these arguments'],
          [false, 'open_ticket was called once, first with {"topic":"refund"}'],
        ],
      )
    } finally {
      await tools.close()
    }
  })

  test('malformed: the answer cut short, no structured content; a delay ends when the attempt does', async () => {
    const s = await scenario()
    s.tools!['get_order']!.faults = [{ malformed: true }]
    s.tools!['create_refund']!.faults = [{ delayMs: 600_000 }]
    const tools = await open(s)
    try {
      const cut = await tools.tools.call('get_order', { order_id: 'X-1' })
      assert.deepEqual(cut, { content: [{ type: 'text', text: '{"status":"unknow' }] })
      const late = tools.tools.call('create_refund', { order_id: 'O-17' })
      await tools.close()
      assert.deepEqual(await late, { content: [{ type: 'text', text: 'the attempt ended before the tool answered' }], isError: true })
      assert.deepEqual(tools.record().calls.map((call) => call.fault), ['every call: malformed', 'every call: delay 600000 ms'])
    } finally {
      await tools.close()
    }
  })
})
