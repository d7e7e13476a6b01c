import assert from 'node:assert/strict'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { after, before, describe, test } from 'node:test'
import { fakeReply, judgeAnswer, startFakeModelServer, type FakeModelServer } from '../../src/entry/testing/fake-model-server.ts'
import { STOP_WORD } from '../../src/play/simulated-user/simulated-user-prompt.ts'
import { readAllAttempts } from '../../src/records/journal/read-run.ts'
import { readJson, sendJson, serve, type Served } from '../fakes/serve.ts'
import { makeProject, onlyRun, runInProcess } from './harness.ts'

/**
 * An agent that answers each turn with two messages, through a whole run: each recorded in the turn,
 * the text the simulated user, the judge and the checks read is the two joined by a blank line, and
 * report.html shows them as two bubbles.
 */
const FIRST = 'Hi! Let me look that up.'
const SECOND = 'Order O-118 shipped on Monday.'

describe('an answer of several messages, through a whole run', () => {
  let models: FakeModelServer
  let agent: Served
  /** The agent lines each model call read, as the fake server parsed them from the prompt. */
  const read: [string, string[]][] = []
  before(async () => {
    models = await startFakeModelServer({
      handler: ({ user, judge }) => {
        const agentLines = (dialogue: { role: string; text: string }[]) => dialogue.filter((line) => line.role === 'agent').map((line) => line.text)
        if (user) read.push(['user', agentLines(user.dialogue)])
        if (judge) read.push(['judge', agentLines(judge.dialogue)])
        if (user) return fakeReply.text(user.dialogue.length === 0 ? 'where is my order?' : STOP_WORD)
        if (judge) return fakeReply.text(judgeAnswer(judge.claims.map(() => ({ pass: true, reason: 'it did' }))))
        return undefined
      },
    })
    agent = await serve((req, res) => void readJson(req).then(() => sendJson(res, 200, { replies: [{ text: FIRST }, { image: 'https://x/y.png' }, { text: SECOND }] })))
  })
  after(async () => {
    await models.close()
    await agent.close()
  })

  test('recorded apart, read joined, shown apart', async () => {
    const dir = await makeProject({
      'convy.yml': `models:\n  base_url: \${CONVY_BASE_URL}\n  user: user-model\n  judge: judge-model\nagents:\n  bot:\n    url: \${BOT_URL}\n    body: { message: "{text}" }\n    reply: replies.*.text\n`,
      'scenarios/order.yml': 'user: Ask where your order is.\njudge:\n  - The agent said the order shipped\nchecks:\n  - contains: "look that up.\\n\\nOrder O-118"\n',
    })
    const result = await runInProcess(['run', 'bot', '-k', '1'], { cwd: dir, env: { CONVY_BASE_URL: models.url, BOT_URL: agent.url } })
    assert.equal(result.code, 0, result.stderr)
    const run = await onlyRun(dir, 'bot')
    const [attempt] = await readAllAttempts(run)
    const answer = attempt?.turns.find((t) => t.role === 'agent')
    assert.deepEqual(answer?.messages, [FIRST, SECOND])
    assert.equal(answer?.text, `${FIRST}\n\n${SECOND}`)
    assert.deepEqual(attempt?.checks.map((c) => c.pass), [true], 'the checks read the joined text')

    const joined = `${FIRST}\n\n${SECOND}`
    assert.deepEqual(
      read,
      [
        ['user', []],
        ['user', [joined]],
        ['judge', [joined]],
      ],
      'the simulated user after the answer, and the judge, read one agent line: the messages joined',
    )

    const report = await readFile(join(run, 'report.html'), 'utf8')
    assert.match(report, /message 1 of 2 · [^<]*<\/span><\/div><div class="text">Hi! Let me look that up\.<\/div>/)
    assert.match(report, /message 2 of 2<\/span><\/div><div class="text">Order O-118 shipped on Monday\.<\/div>/)
  })
})
