import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import type { Agent } from '../../src/play/agents/agent.ts'
import { agentExport } from '../../src/play/agents/checked-agent.ts'
import { playAttempt, type PlayDependencies } from '../../src/play/conversation/play-attempt.ts'
import { AttemptSchema } from '../../src/records/journal/records.ts'
import { runChecks } from '../../src/play/judge/checks.ts'
import { judgeMessages, readJudgeRequest } from '../../src/play/judge/judge-prompt.ts'
import type { DialogueLine, Judge } from '../../src/play/conversation/roles.ts'
import { parseYamlFile } from '../../src/base/input/yaml-file.ts'
import { parseScenario } from '../../src/records/scenario/load-scenarios.ts'

/**
 * Tool calls and time to first token from an agent's answer to the run's records: the Turn, the
 * `tool_called` / `tool_not_called` checks, and the transcript the judge reads.
 */

const SCENARIO = `
script:
  - where is my order 1234?
  - thanks
checks:
  - tool_called: get_order
  - tool_not_called: delete_order
  - tool_called: refund
judge:
  - The agent looked the order up
`

/** Answers the first message after a lookup, streaming its first token after 30 ms of a 60 ms answer. */
const lookupAgent: Agent = {
  conversation: () => ({
    async answer(message, context) {
      if (!message.includes('order')) return { text: "You're welcome" }
      await sleep(30)
      context.firstToken?.()
      context.firstToken?.()
      await sleep(30)
      return { text: 'Order 1234 has shipped', toolCalls: [{ name: 'get_order', arguments: { id: '1234' } }] }
    },
  }),
}

function sleep(ms: number): Promise<void> {
  return new Promise((done) => setTimeout(done, ms))
}

function deps(agent: Agent, judged: DialogueLine[][]): PlayDependencies {
  const judge: Judge = {
    model: 'judge-model',
    decide: async (scenario, dialogue) => {
      judged.push([...dialogue])
      return scenario.judge.map(() => ({ pass: true, reason: 'shown' }))
    },
  }
  return { agent, user: null, judge, smoke: false, turnTimeoutSeconds: 5, prices: {}, mask: (t) => t, signal: new AbortController().signal }
}

describe('tool calls and time to first token', () => {
  test('are recorded in the turn, decide tool checks, and reach the judge', async () => {
    const scenario = parseScenario(parseYamlFile('order.yml', SCENARIO), 'order')
    const judged: DialogueLine[][] = []
    const attempt = AttemptSchema.parse(await playAttempt(scenario, 1, 's-1', deps(lookupAgent, judged)))

    const [, first, , second] = attempt.turns
    assert.deepEqual(first?.toolCalls, [{ name: 'get_order', arguments: { id: '1234' } }])
    assert.ok(first?.firstTokenSeconds !== undefined && first.firstTokenSeconds >= 0.025 && first.firstTokenSeconds < first.seconds - 0.02, `first token ${first?.firstTokenSeconds} s of ${first?.seconds} s`)
    assert.equal(second?.toolCalls, undefined, 'no tool calls, no key')
    assert.equal(second?.firstTokenSeconds, undefined, 'an answer that did not stream has no time to first token')

    assert.deepEqual(
      attempt.checks.map((c) => [c.kind, c.value, c.pass, c.detail]),
      [
        ['tool_called', 'get_order', true, 'answer 1 called it'],
        ['tool_not_called', 'delete_order', true, 'no answer called it (tools called: get_order)'],
        ['tool_called', 'refund', false, 'no answer called it (tools called: get_order)'],
      ],
    )
    assert.equal(attempt.verdict, 'failed')

    const messages = judgeMessages(scenario.judge, judged[0]!)
    const request = messages[1]!.content as string
    assert.match(request, /"tool_calls", on some agent turns, lists the tools/)
    assert.match(request, /\{"turn":2,"speaker":"agent","text":"Order 1234 has shipped","tool_calls":\[\{"name":"get_order","arguments":\{"id":"1234"\}\}\]\}/)
    assert.deepEqual(readJudgeRequest(messages)?.dialogue[1], { role: 'agent', text: 'Order 1234 has shipped', toolCalls: [{ name: 'get_order', arguments: { id: '1234' } }] })
  })

  test('a dialogue without tool calls gives the judge the same request as before tools existed', () => {
    const request = judgeMessages(['c'], [{ role: 'user', text: 'hi' }, { role: 'agent', text: 'hello' }])[1]!.content as string
    assert.doesNotMatch(request, /tool/)
  })

  test('the judge gets the start of very long arguments, as text', () => {
    const document = { body: 'x'.repeat(5_000) }
    const request = judgeMessages(['c'], [{ role: 'agent', text: 'saved', toolCalls: [{ name: 'save', arguments: document }] }])[1]!.content as string
    const turn = JSON.parse(request.split('\n').find((line) => line.startsWith('{"turn":1'))!) as { tool_calls: { arguments: string }[] }
    assert.equal(turn.tool_calls[0]!.arguments, `${JSON.stringify(document).slice(0, 2_000)}… (cut)`)
  })

  test('tool checks say when the agent showed no tool call at all', async () => {
    const [called, notCalled] = await runChecks(
      [
        { kind: 'tool_called', value: 'get_order' },
        { kind: 'tool_not_called', value: 'get_order' },
      ],
      ['a', 'b'],
    )
    assert.deepEqual([called?.pass, called?.detail], [false, 'no answer came with a tool call (the agent made none, or its protocol does not show them)'])
    assert.deepEqual([notCalled?.pass], [true])
  })

  test('a module reports tool calls through its answer; malformed ones fail the turn with the expected shape', async () => {
    const module = (toolCalls: unknown) => ({ agent: { conversation: () => ({ answer: () => ({ text: 'ok', toolCalls }) }) } })
    const context = { session: 's', signal: new AbortController().signal, context: {}, history: [] }
    const good = await (await agentExport(module([{ name: 'search', arguments: 'q=1', extra: true }, { name: 'noop' }]), 'agents/a.ts').conversation(context)).answer('x', context)
    assert.deepEqual(good.toolCalls, [{ name: 'search', arguments: 'q=1' }, { name: 'noop' }])
    const bad = await agentExport(module([{ arguments: {} }]), 'agents/b.ts').conversation(context)
    await assert.rejects(async () => bad.answer('x', context), /agents\/b\.ts: answer\(\) must return .*toolCalls\?: \{ name: string.*but its toolCalls are \[\{"arguments":\{\}\}\]/)
  })

  test('scenario files accept tool checks and name them among the kinds', async () => {
    const file = (checks: string) => parseYamlFile('s.yml', `script: [hi]\nchecks:\n${checks}`)
    assert.deepEqual(parseScenario(await file('  - tool_not_called: delete_order\n'), 's').checks, [{ kind: 'tool_not_called', value: 'delete_order' }])
    const unknownKind = await file('  - tool_used: x\n')
    assert.throws(() => parseScenario(unknownKind, 's'), /s\.yml:3: checks\.0: unknown check `tool_used`; a check is one of .*`tool_called: …`, `tool_not_called: …`/)
  })
})
