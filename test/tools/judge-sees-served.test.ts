import assert from 'node:assert/strict'
import { join } from 'node:path'
import { after, before, test } from 'node:test'
import { makeProject, onlyRun, readJsonLines, runInProcess } from '../cli/harness.ts'
import { convyYml } from '../support/convy-yml.ts'
import { judgeByRule, startFakeModelServer, type DialogueLine, type FakeModelServer } from '../../src/entry/testing/index.ts'

// The judge sees the calls convy-ci served, in the answer they came during, marked served, with the
// tool error and the fault: evidence an agent that reports nothing cannot hide.

const AGENT = `export const agent = {
  conversation() {
    return {
      async answer(message, { tools }) {
        const first = await tools.call('get_order', { order_id: 'O-17' })
        return { text: first.isError ? 'Sorry, please try again.' : 'It is late.' }
      },
    }
  },
}
`
const SCENARIO = `script: ["where is O-17?", "again please"]
tools:
  get_order:
    input: { order_id: string }
    answers: [{ result: { status: late } }]
    faults: [{ call: 1, error: upstream timeout }]
judge:
  - The agent apologised when the lookup failed
`

let models: FakeModelServer
let seen: DialogueLine[] = []
before(async () => {
  models = await startFakeModelServer({
    judge: judgeByRule((_claim, dialogue) => {
      seen = [...dialogue]
      return true
    }),
  })
})
after(() => models.close())

test('the judge gets each answer with the calls served during it, marked served, with the fault', async () => {
  const dir = await makeProject({ 'convy.yml': convyYml({ models: { user: null }, agents: ['  bot: agents/bot.mjs\n'] }), 'agents/bot.mjs': AGENT, 'scenarios/s.yml': SCENARIO })
  const result = await runInProcess(['run', 'bot'], { cwd: dir, env: { CONVY_BASE_URL: models.url } })
  assert.equal(result.code, 0, result.stdout + result.stderr)
  assert.deepEqual(
    seen.filter((line) => line.role === 'agent').map((line) => line.toolCalls),
    [
      [{ name: 'get_order', arguments: { order_id: 'O-17' }, served: true, error: 'upstream timeout', fault: 'call 1: error "upstream timeout"' }],
      [{ name: 'get_order', arguments: { order_id: 'O-17' }, result: { status: 'late' }, served: true }],
    ],
  )
  const judged = models.requests.find((r) => r.kind === 'judge')!.body as { messages: { content: string }[] }
  assert.match(judged.messages[1]!.content, /"served": true marks a call the test's own tools answered/)
  const [attempt] = await readJsonLines(join(await onlyRun(dir, 'bot'), 'attempts.jsonl'))
  assert.equal(attempt!['verdict'], 'passed')
})
