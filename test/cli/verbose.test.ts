import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { judgeByRule, scriptedUser, startFakeModelServer, type FakeModelServer } from '../../src/entry/testing/fake-model-server.ts'
import type { Agent } from '../../src/play/agents/agent.ts'
import { playAttempt } from '../../src/play/conversation/play-attempt.ts'
import { parseYamlFile } from '../../src/base/input/yaml-file.ts'
import type { Turn } from '../../src/records/journal/records.ts'
import { parseScenario } from '../../src/records/scenario/load-scenarios.ts'
import { makeProject, runInProcess } from './harness.ts'
import { convyYml } from '../support/convy-yml.ts'

const CONVY_YML = convyYml({ models: { apiKey: 'test-key' }, agents: ['  tools: agents/tools.mjs\n'] })

// A module agent that looks an order up with a tool, then answers; the second line is hostile.
const TOOLS_AGENT = `export const agent = {
  conversation() {
    let n = 0
    return {
      answer(text) {
        n++
        if (n === 1) return { text: 'Let me look (test-key).', toolCalls: [{ name: 'lookup_order', arguments: { id: 4821 } }], usage: { input: 12, output: 3 } }
        return { text: 'Order 4821 \\u001b[2J\\u001b[31mshipped\\u001b[0m \\u202Etoday\\nline two', usage: { input: 20, output: 6 } }
      },
    }
  },
}
`

const SCENARIOS = {
  'scenarios/order.yml': `user: Ask where order 4821 is.
judge:
  - The agent said the order shipped
checks:
  - contains: shipped
`,
  'scenarios/hello.yml': `script:
  - hello
checks:
  - contains: hello
`,
}

describe('run --verbose', () => {
  let models: FakeModelServer
  before(async () => {
    models = await startFakeModelServer({
      user: scriptedUser(['where is order 4821?', 'thanks']),
      judge: judgeByRule((_claim, dialogue) => ({ pass: dialogue.some((l) => l.text.includes('shipped')), reason: 'it said "shipped" in answer 2' })),
    })
  })
  after(() => models.close())

  test('with --parallel 1: each conversation under a heading, as it happens, then the decisions and the verdict', async () => {
    const dir = await makeProject({ 'convy.yml': CONVY_YML, 'agents/tools.mjs': TOOLS_AGENT, ...SCENARIOS })
    const result = await runInProcess(['run', 'tools', '--verbose', '--parallel', '1', '--scenarios', 'order'], { cwd: dir, env: { CONVY_BASE_URL: models.url } })
    assert.equal(result.code, 0, result.stderr)
    const shown = result.stdout.replace(/\((?:\d+ ms|\d+(?:\.\d)? s)/g, '(T')
    assert.ok(
      shown.includes(
        [
          '── order · attempt 1 of 1 ──',
          'User: where is order 4821?',
          'Agent (T · 12 in / 3 out tokens): Let me look (***).',
          '  ⚙ lookup_order {"id":4821}',
          'User: thanks',
          'Agent (T · 20 in / 6 out tokens): Order 4821 \\u001b[2J\\u001b[31mshipped\\u001b[0m \\u202etoday',
          '  line two',
          '  ✓ contains shipped — answer 2 contains it',
          '  ✓ The agent said the order shipped — it said "shipped" in answer 2',
          '→ passed',
        ].join('\n'),
      ),
      shown,
    )
    // Nothing the agent sent reaches the terminal as a control (escapes and bidi overrides are shown
    // escaped), and the models' key it echoed is masked as in the run folder.
    assert.ok(!result.stdout.includes('\u001b') && !result.stdout.includes('\u202e'))
    assert.doesNotMatch(result.stdout, /test-key/)
  })

  test('with several at once: every line says whose it is', async () => {
    const dir = await makeProject({ 'convy.yml': CONVY_YML, 'agents/tools.mjs': TOOLS_AGENT, ...SCENARIOS })
    const result = await runInProcess(['run', 'echo', '--verbose', '--parallel', '3', '-k', '2', '--scenarios', 'hello'], { cwd: dir, env: { CONVY_BASE_URL: models.url } })
    assert.equal(result.code, 0, result.stderr)
    for (const attempt of [1, 2]) {
      const lines = result.stdout.split('\n').filter((l) => l.startsWith(`[hello #${attempt}] `))
      assert.deepEqual(
        lines.map((l) => l.replace(/\((?:\d+ ms|\d+(?:\.\d)? s)/g, '(T')),
        [`[hello #${attempt}] User: hello`, `[hello #${attempt}] Agent (T): hello`, `[hello #${attempt}]   ✓ contains hello — answer 1 contains it`, `[hello #${attempt}] → passed`],
      )
    }
    assert.doesNotMatch(result.stdout, /── hello/, 'no headings when conversations interleave')
  })

  test('replay --verbose shows the recorded user lines played again; resume --verbose shows the attempts it plays', async () => {
    const dir = await makeProject({ 'convy.yml': CONVY_YML, 'agents/tools.mjs': TOOLS_AGENT, ...SCENARIOS })
    const env = { CONVY_BASE_URL: models.url }
    const first = await runInProcess(['run', 'tools', '--parallel', '1', '--scenarios', 'order'], { cwd: dir, env })
    assert.equal(first.code, 0, first.stderr)
    assert.doesNotMatch(first.stdout, /^User: /m, 'without --verbose, no dialogue')
    const id = /^run (\S+)$/m.exec(first.stdout)![1]!
    const replayed = await runInProcess(['replay', id, '--verbose'], { cwd: dir, env })
    assert.equal(replayed.code, 0, replayed.stderr)
    const shown = replayed.stdout.replace(/\((?:\d+ ms|\d+(?:\.\d)? s)/g, '(T')
    assert.ok(shown.includes(['── order · attempt 1 of 1 ──', 'User: where is order 4821?', 'Agent (T · 12 in / 3 out tokens): Let me look (***).'].join('\n')), shown)
    assert.match(shown, /^User: thanks$/m)

    // A run with an attempt missing: resume plays it, and shows it.
    const missing = await runInProcess(['run', 'tools', '--parallel', '1', '--scenarios', 'order', '-k', '2'], { cwd: dir, env })
    const runId = /^run (\S+)$/m.exec(missing.stdout)![1]!
    const { readFile, writeFile } = await import('node:fs/promises')
    const { join } = await import('node:path')
    const folder = join(dir, 'results', runId)
    const lines = (await readFile(join(folder, 'attempts.jsonl'), 'utf8')).trimEnd().split('\n')
    await writeFile(join(folder, 'attempts.jsonl'), `${lines[0]}\n`)
    const manifest = JSON.parse(await readFile(join(folder, 'run.json'), 'utf8'))
    await writeFile(join(folder, 'run.json'), JSON.stringify({ ...manifest, state: 'interrupted', finishedAt: null }))
    const resumed = await runInProcess(['resume', runId, '--verbose'], { cwd: dir, env })
    assert.equal(resumed.code, 0, resumed.stderr)
    const played = JSON.parse(lines[1]!).attempt as number
    assert.ok(resumed.stdout.includes(`── order · attempt ${played} of 2 ──\nUser: where is order 4821?`), resumed.stdout)
    assert.equal((resumed.stdout.match(/^── order/gm) ?? []).length, 1, 'only the attempt it plays')
  })
})

test('the watcher sees each line the moment it is recorded: the user line before the agent is asked, masked', async () => {
  const events: string[] = []
  const scenario = parseScenario(parseYamlFile('s.yml', 'script: [hello, bye]\nchecks: [{ contains: bye }]\n'), 's')
  const agent: Agent = {
    conversation: () => ({
      answer: (message) => {
        events.push(`agent asked: ${message}`)
        return { text: `${message} sk-secret-1` }
      },
    }),
  }
  const watcher = { turn: (turn: Turn) => events.push(`${turn.role}: ${turn.text}`), ended: () => {} }
  const mask = (text: string) => text.replaceAll('sk-secret-1', '***')
  await playAttempt(scenario, 1, 's-1', { agent, user: null, judge: null, smoke: false, turnTimeoutSeconds: 5, prices: {}, mask, signal: new AbortController().signal, watcher })
  assert.deepEqual(events, ['user: hello', 'agent asked: hello', 'agent: hello ***', 'user: bye', 'agent asked: bye', 'agent: bye ***'])
})
