import assert from 'node:assert/strict'
import { join } from 'node:path'
import { after, before, describe, test } from 'node:test'
import OpenAI from 'openai'
import type { ChatCompletionMessageParam, ChatCompletionTool } from 'openai/resources/chat/completions'
import { makeProject, readJsonLines } from '../cli/harness.ts'
import { convyYml } from '../support/convy-yml.ts'
import { defineAgent, run, type ToolCall } from '../../src/index.ts'
import { fakeReply, startFakeModelServer, type FakeChatRequest, type FakeModelServer } from '../../src/entry/testing/index.ts'
import type { Attempt } from '../../src/records/journal/records.ts'
import { callOverMcp, mcpClient, nextStep, SCENARIOS, TOOL_SET, type StepResult } from './tool-policy.ts'

/**
 * An agent as frameworks build them: its own model (the `openai` SDK against the fake model server)
 * gets the scenario's MCP tools as function tools, and the agent runs the calls the model makes
 * through the official MCP client at `context.tools_url`. It also reports its calls, as a protocol
 * would: each call is counted once (tool-evidence.ts).
 */
const ERROR = 'ERROR: '

/** The agent's model: the tools-test policy, read back from the messages of the answer under way. */
function agentModel(request: FakeChatRequest) {
  const messages = request.messages as ChatCompletionMessageParam[]
  const lastUser = messages.findLastIndex((m) => m.role === 'user')
  const names = new Map<string, string>()
  const results: StepResult[] = []
  for (const message of messages.slice(lastUser + 1)) {
    if (message.role === 'assistant') for (const call of message.tool_calls ?? []) if (call.type === 'function') names.set(call.id, call.function.name)
    if (message.role === 'tool') {
      const text = String(message.content)
      results.push({ name: names.get(message.tool_call_id) ?? '?', text: text.startsWith(ERROR) ? text.slice(ERROR.length) : text, isError: text.startsWith(ERROR) })
    }
  }
  const step = nextStep(String(messages[lastUser]!.content), results)
  return 'say' in step ? fakeReply.text(step.say) : fakeReply.toolCalls([step.call])
}

describe('an OpenAI-chat agent that turns the served tools into function calls', () => {
  let models: FakeModelServer
  let rows: (Attempt & Record<string, unknown>)[]
  before(async () => {
    models = await startFakeModelServer({ handler: agentModel })
    const dir = await makeProject({ 'convy.yml': `${convyYml({ models: null, agents: '{}' })}${TOOL_SET}`, ...SCENARIOS })
    const agent = defineAgent({
      conversation() {
        const messages: ChatCompletionMessageParam[] = []
        const openai = new OpenAI({ baseURL: models.url, apiKey: 'agent-key', maxRetries: 0 })
        return {
          async answer(message, { context, signal }) {
            const client = await mcpClient(String(context['tools_url']))
            try {
              const tools: ChatCompletionTool[] = (await client.listTools()).tools.map((t) => ({ type: 'function', function: { name: t.name, ...(t.description ? { description: t.description } : {}), parameters: t.inputSchema } }))
              messages.push({ role: 'user', content: message })
              const reported: ToolCall[] = []
              for (;;) {
                const completion = await openai.chat.completions.create({ model: 'agent-model', messages, tools }, { signal })
                const reply = completion.choices[0]!.message
                messages.push(reply)
                if (!reply.tool_calls?.length) return { text: reply.content ?? '', toolCalls: reported }
                for (const call of reply.tool_calls) {
                  if (call.type !== 'function') continue
                  const args = JSON.parse(call.function.arguments) as Record<string, unknown>
                  const result = await callOverMcp(client, call.function.name, args)
                  reported.push({ name: call.function.name, arguments: args })
                  messages.push({ role: 'tool', tool_call_id: call.id, content: result.isError ? `${ERROR}${result.text}` : result.text })
                }
              }
            } finally {
              await client.close()
            }
          },
        }
      },
    })
    const result = await run({ config: join(dir, 'convy.yml'), agent, name: 'openai_bot', k: 2, results: join(dir, 'results') })
    assert.equal(result.exitCode, 0)
    rows = (await readJsonLines(join(result.dir!, 'attempts.jsonl'))) as typeof rows
  })
  after(() => models.close())

  test('the model got the tools as functions with their JSON Schemas', () => {
    const first = models.requests.find((r) => r.kind === 'other')!.body as { tools: ChatCompletionTool[] }
    assert.deepEqual(
      first.tools.map((t) => (t.type === 'function' ? [t.function.name, t.function.parameters] : null)),
      [
        ['get_order', { type: 'object', properties: { order_id: { type: 'string' } }, required: ['order_id'] }],
        ['create_refund', { type: 'object', properties: { order_id: { type: 'string' }, reason: { type: 'string' } }, required: ['order_id'] }],
        ['open_ticket', { type: 'object', properties: { topic: { type: 'string' } }, required: ['topic'] }],
      ],
    )
  })

  test('served and reported, each call counted once: the record, the checks and the end state', () => {
    const refund = rows.filter((r) => r.scenario === 'refund').sort((a, b) => a.attempt - b.attempt)
    for (const attempt of refund) {
      assert.equal(attempt.verdict, 'passed', JSON.stringify(attempt.checks))
      assert.deepEqual(
        attempt.tools!.calls.map((c) => [c.turn, c.name, c.fault ?? c.error ?? c.result]),
        [
          [1, 'get_order', 'call 1: error "upstream timeout"'],
          [2, 'get_order', { status: 'delayed', refund: null }],
          [2, 'create_refund', { refund_id: 'R-O-17' }],
          [2, 'get_order', { status: 'delayed', refund: 'requested' }],
          [3, 'delete_account', 'no tool "delete_account" in this scenario; its tools: get_order, create_refund, open_ticket'],
        ],
      )
      // Reported as well: five calls, not ten.
      assert.equal(attempt.turns.flatMap((t) => t.toolCalls ?? []).length, 5)
      assert.deepEqual(attempt.checks.find((c) => c.kind === 'max_tool_calls'), {
        kind: 'max_tool_calls',
        value: '5',
        pass: true,
        detail: '5 tool calls, at most 5 allowed: get_order ×3, create_refund ×1, delete_account ×1',
      })
    }
    const failed = rows.filter((r) => r.scenario === 'no-refund')
    assert.deepEqual(
      failed.map((r) => [r.verdict, r.checks.filter((c) => !c.pass).map((c) => c.kind)]),
      [
        ['failed', ['state']],
        ['failed', ['state']],
      ],
    )
  })
})
