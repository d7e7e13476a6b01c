import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { fakeReply, judgeAnswer, startFakeModelServer, type FakeModelServer } from '../../src/entry/testing/fake-model-server.ts'
import { STOP_WORD } from '../../src/play/simulated-user/simulated-user-prompt.ts'
import { readAllAttempts } from '../../src/records/journal/read-run.ts'
import { startFakeAgentServer, type FakeAgentServer } from '../fakes/agent-server.ts'
import { makeProject, onlyRun, runInProcess } from './harness.ts'
import { chatBotYml, convyYml } from '../support/convy-yml.ts'

const CONVY_YML = convyYml({ models: { user: 'thinking-user', judge: 'thinking-judge' }, agents: [chatBotYml('support_bot')] })

const SCENARIO = `user: |
  Your order is late. Give the order number 4821 only when asked.
judge:
  - The agent asked for the order number
  - The agent said the order is on its way
max_turns: 4
`

/**
 * Both of convy-ci's models are reasoning models served inline: every answer starts with a
 * `<think>` block, and the simulated user's thoughts mention ###STOP### at every turn.
 */
describe('reasoning models that think inline, through a whole run', () => {
  let models: FakeModelServer
  let bot: FakeAgentServer
  before(async () => {
    const lines = ['where is my order?', 'the number is 4821', `thanks ${STOP_WORD}`]
    models = await startFakeModelServer({
      handler: ({ user, judge }) => {
        if (user) {
          const said = user.dialogue.filter((line) => line.role === 'user').length
          return fakeReply.text(`<think>Am I done? Not until the order is on its way; then ${STOP_WORD}.</think>\n${lines[said] ?? STOP_WORD}`)
        }
        if (judge) {
          const answers = judge.dialogue.filter((line) => line.role === 'agent').map((line) => line.text.toLowerCase()).join('\n')
          const decisions = judge.claims.map((claim) => {
            const pass = claim.includes('order number') ? answers.includes('order number') : answers.includes('on its way')
            return { pass, reason: pass ? 'it did' : 'it did not' }
          })
          return fakeReply.text(`<think>Claim 1: {"claims": "maybe"}. Let me look again.</think>\n${judgeAnswer(decisions)}`)
        }
        return undefined
      },
    })
    bot = await startFakeAgentServer()
  })
  after(async () => {
    await models.close()
    await bot.close()
  })

  test('the thoughts neither end the conversation nor reach the agent, and the judge decides', async () => {
    const dir = await makeProject({ 'convy.yml': CONVY_YML, 'scenarios/order.yml': SCENARIO })
    const result = await runInProcess(['run', 'support_bot', '-k', '2'], { cwd: dir, env: { CONVY_BASE_URL: models.url, BOT_URL: bot.url } })
    assert.equal(result.code, 0, result.stderr)
    const attempts = await readAllAttempts(await onlyRun(dir, 'support_bot'))
    assert.equal(attempts.length, 2)
    for (const attempt of attempts) {
      assert.equal(attempt.verdict, 'passed', JSON.stringify(attempt.claims))
      assert.deepEqual(attempt.turns.filter((turn) => turn.role === 'user').map((turn) => turn.text), ['where is my order?', 'the number is 4821', 'thanks'])
      assert.equal(attempt.models.judge?.calls, 1, 'read at the first ask')
    }
    const sentToAgent = bot.requests.map((request) => JSON.stringify(request.body))
    assert.ok(sentToAgent.every((body) => !body.includes('think')), 'no thought was sent to the agent')
  })
})
