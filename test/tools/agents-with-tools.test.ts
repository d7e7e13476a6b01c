import assert from 'node:assert/strict'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { after, before, describe, test } from 'node:test'
import { makeProject, onlyRun, readJsonLines, runInProcess } from '../cli/harness.ts'
import { convyYml } from '../support/convy-yml.ts'
import type { Attempt } from '../../src/records/journal/records.ts'
import { answerWith, callOverMcp, mcpClient, nextStep, SCENARIOS, TOOL_SET } from './tool-policy.ts'

/**
 * A scenario's tools through the whole run, for two agents of the three kinds the issue names (the
 * third, an OpenAI-chat agent, is in openai-agent-tools.test.ts): a JSON agent whose server is an
 * MCP client of `{tools_url}`, and a module agent that calls them in-process. Both follow one policy
 * (tool-policy.ts), so they record the same calls.
 */

/** The JSON agent's server: every request connects to the tools it is sent, answers, and disconnects. */
async function startMcpAgent(): Promise<{ url: string; toolUrls: string[]; server: Server }> {
  const toolUrls: string[] = []
  const server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      void (async () => {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { message: string; tools: string }
        toolUrls.push(body.tools)
        const client = await mcpClient(body.tools)
        try {
          const answer = await answerWith(body.message, (name, args) => callOverMcp(client, name, args))
          res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ answer }))
        } finally {
          await client.close()
        }
      })().catch((error: unknown) => res.writeHead(500).end(String(error)))
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, toolUrls, server }
}

/** A module agent (plain JavaScript, as a project writes it) with the same policy, calling the tools in-process. */
// The test files run compiled by esbuild, whose functions may name themselves with its __name helper.
const MODULE_AGENT = `const __name = (f) => f
const nextStep = ${nextStep.toString()}
const answerWith = ${answerWith.toString()}
export const agent = {
  conversation() {
    return {
      answer: async (message, { tools, context }) => ({
        text: await answerWith(message, async (name, args) => {
          try {
            const result = await tools.call(name, args)
            return { name, text: result.content[0].text, isError: result.isError === true }
          } catch (error) {
            return { name, text: error.message, isError: true }
          }
        }) + (context.tools_url ? '' : ' (no tools_url)'),
      }),
    }
  },
}
`

const YML = `${convyYml({
  models: null,
  agents: ['  mcp_bot:\n    url: ${BOT_URL}/chat\n    body: { message: "{text}", tools: "{tools_url}" }\n    reply: answer\n', '  module_bot: agents/bot.mjs\n'],
})}${TOOL_SET}`

type Row = Attempt & Record<string, unknown>

function byScenario(rows: Row[]): Map<string, Row[]> {
  const map = new Map<string, Row[]>()
  for (const row of rows) map.set(row.scenario, [...(map.get(row.scenario) ?? []), row].sort((a, b) => a.attempt - b.attempt))
  return map
}

function checksOf(row: Row): [string, string, boolean, string][] {
  return row.checks.map((c) => [c.kind, c.value, c.pass, c.detail])
}

for (const agentName of ['mcp_bot', 'module_bot'] as const) {
  describe(`${agentName}: served tools through a run`, () => {
    let bot: Awaited<ReturnType<typeof startMcpAgent>>
    let dir: string
    let rows: Map<string, Row[]>
    let runDir: string
    let stdout: string
    before(async () => {
      bot = await startMcpAgent()
      dir = await makeProject({ 'convy.yml': YML, 'agents/bot.mjs': MODULE_AGENT, ...SCENARIOS })
      const result = await runInProcess(['run', agentName, '-k', '2'], { cwd: dir, env: { BOT_URL: bot.url } })
      stdout = result.stdout + result.stderr
      assert.equal(result.code, 0, stdout)
      runDir = await onlyRun(dir, agentName)
      rows = byScenario((await readJsonLines(join(runDir, 'attempts.jsonl'))) as Row[])
    })
    after(() => new Promise<void>((resolve) => bot.server.close(() => resolve())))

    test('every served call recorded with its turn, arguments, answer and fault; the state read after a write; an unknown tool answered with the list', () => {
      const [attempt] = rows.get('refund')!
      assert.equal(attempt!.verdict, 'passed', JSON.stringify(attempt!.checks))
      const tools = attempt!.tools!
      assert.match(tools.url, /^http:\/\/127\.0\.0\.1:\d+\/mcp$/)
      assert.deepEqual(
        tools.calls.map((c) => [c.turn, c.name, c.arguments, c.result ?? null, c.error ?? null, c.fault ?? null]),
        [
          [1, 'get_order', { order_id: 'O-17' }, null, 'upstream timeout', 'call 1: error "upstream timeout"'],
          [2, 'get_order', { order_id: 'O-17' }, { status: 'delayed', refund: null }, null, null],
          [2, 'create_refund', { order_id: 'O-17', reason: 'late' }, { refund_id: 'R-O-17' }, null, null],
          [2, 'get_order', { order_id: 'O-17' }, { status: 'delayed', refund: 'requested' }, null, null],
          [3, 'delete_account', { user: 'ada' }, null, 'no tool "delete_account" in this scenario; its tools: get_order, create_refund, open_ticket', null],
        ],
      )
      assert.deepEqual(tools.state, { refunds: { 'O-17': 'requested' } })
      assert.deepEqual(
        attempt!.turns.filter((t) => t.role === 'agent').map((t) => t.text.replace(' (no tools_url)', '')),
        [
          'Sorry, the order system failed (upstream timeout). Shall I try again?',
          'Your refund for O-17 is requested.',
          `I can't: ${agentName === 'mcp_bot' ? 'MCP error -32602: ' : ''}no tool "delete_account" in this scenario; its tools: get_order, create_refund, open_ticket`,
        ],
      )
      // The agent reported no call: the checks decided on the served ones.
      assert.ok(attempt!.turns.every((t) => t.toolCalls === undefined))
    })

    test('the checks on tool calls and the end state decide on served calls, passing and failing with what was found', () => {
      const [refund] = rows.get('refund')!
      assert.deepEqual(checksOf(refund!).slice(2).filter(([kind]) => kind !== 'max_tool_calls'), [
        ['tool_called', 'create_refund {"order_id":"O-17"}', true, 'answer 2, call 2 called it with these arguments'],
        ['tool_order', 'get_order → create_refund → get_order', true, 'in this order: get_order (answer 1), create_refund (answer 2, call 2), get_order (answer 2, call 3)'],
        ['state', 'refunds.O-17 = "requested"', true, 'refunds.O-17 is "requested"'],
        ['called', 'create_refund {"order_id":"O-17"} × 1', true, 'create_refund was called once with these arguments'],
        ['never', 'open_ticket', true, 'open_ticket was not called'],
      ])
      for (const attempt of rows.get('no-refund')!) {
        assert.equal(attempt.verdict, 'failed')
        assert.deepEqual(checksOf(attempt).at(-1), ['state', 'refunds.O-17 = "requested"', false, 'refunds.O-17 was never set (the state: {})'])
      }
    })

    test('a fault on call 1 hits call 1 of each attempt, and only it', () => {
      for (const attempt of rows.get('refund')!) {
        assert.deepEqual(
          attempt.tools!.calls.filter((c) => c.name === 'get_order').map((c) => c.fault ?? null),
          ['call 1: error "upstream timeout"', null, null],
        )
      }
    })

    if (agentName === 'mcp_bot') {
      test('the JSON agent got one address per attempt, the same on every turn of it', () => {
        assert.equal(new Set(bot.toolUrls).size, 6)
        assert.equal(bot.toolUrls.length, 2 * (3 + 2 + 1))
      })

      test('a seeded random fault: resume plays a lost attempt again and draws the same faults', async () => {
        const [first, second] = rows.get('tickets')!
        const hits = (a: Row) => a.tools!.calls.map((c) => (c.fault ? 'x' : 'o')).join('')
        assert.equal(hits(first!).length, 8)
        assert.match(`${hits(first!)}${hits(second!)}`, /x/)
        assert.match(`${hits(first!)}${hits(second!)}`, /o/)
        assert.ok(second!.turns.at(-1)!.text.endsWith(hits(second!)))
        // The run lost its last tickets attempt (killed before it was written): resume plays it again.
        const file = join(runDir, 'attempts.jsonl')
        const lines = (await readFile(file, 'utf8')).split('\n').filter(Boolean)
        await writeFile(file, `${lines.filter((line) => !(line.includes('"scenario":"tickets"') && line.includes('"attempt":2,'))).join('\n')}\n`)
        const resumed = await runInProcess(['resume', runDir.split('/').at(-1)!], { cwd: dir, env: { BOT_URL: bot.url } })
        assert.equal(resumed.code, 0, resumed.stdout + resumed.stderr)
        const again = byScenario((await readJsonLines(file)) as Row[]).get('tickets')![1]!
        assert.notEqual(again.tools!.url, second!.tools!.url)
        assert.equal(again.tools!.seed, second!.tools!.seed)
        assert.equal(hits(again), hits(second!))
      })
    }
  })
}
