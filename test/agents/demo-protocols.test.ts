import assert from 'node:assert/strict'
import { cpSync, mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { after, before, describe, test } from 'node:test'
import { startDemoServer } from '../../scenarios-example/agents/protocols/demo-server.ts'
import { onlyRun, readJsonLines, runInProcess } from '../cli/harness.ts'

/**
 * The example a user copies from (scenarios-example/agents/protocols): its convy.yml, played by the
 * CLI against its demo server, one agent per protocol, from run to report.
 */
const EXAMPLE = fileURLToPath(new URL('../../scenarios-example/agents/protocols/', import.meta.url))
const AGENTS = ['openai_chat', 'openai_responses', 'ai_sdk', 'a2a', 'langgraph', 'sse', 'ndjson']

describe('the protocol examples, end to end through the CLI', () => {
  let server: { url: string; close(): Promise<void> }
  let project: string
  before(async () => {
    server = await startDemoServer(0)
    project = mkdtempSync(join(tmpdir(), 'convy-protocols-'))
    cpSync(EXAMPLE, project, { recursive: true, filter: (path) => !path.includes('results') })
  })
  after(() => server.close())

  for (const agent of AGENTS) {
    test(`${agent}: every check holds, tool calls and first tokens are recorded`, async () => {
      const result = await runInProcess(['run', agent, '-k', '1'], { cwd: project, env: { DEMO_URL: server.url } })
      assert.equal(result.code, 0, result.stderr + result.stdout)
      const attempts = await readJsonLines(join(await onlyRun(project, agent), 'attempts.jsonl'))
      assert.deepEqual(attempts.map((a) => [a['scenario'], a['verdict']]).sort(), [['order-lookup', 'passed'], ['unknown-order', 'passed']])
      const lookup = attempts.find((a) => a['scenario'] === 'order-lookup')!
      const answers = (lookup['turns'] as Record<string, unknown>[]).filter((t) => t['role'] === 'agent')
      // The AI SDK's tool outputs and LangGraph's tool messages carry the tool's result too.
      const said = 'Order 48213 shipped on Monday and arrives on Friday.'
      const returned = agent === 'ai_sdk' ? { result: { status: said } } : agent === 'langgraph' ? { result: said } : {}
      assert.deepEqual(answers[1]?.['toolCalls'], [{ name: 'get_order', arguments: { id: '48213' }, ...returned }])
      assert.ok(answers.every((t) => t['tokens'] !== null), 'every protocol here carries usage')
      assert.ok(answers.every((t) => typeof t['firstTokenSeconds'] === 'number'), 'they all stream')
    })
  }
})
