// The example bot from node:test, the test runner built into Node: `node --test scenarios-example/tests/`.
// It needs the bot running (PORT=8080 node scenarios-example/server.mjs) and SUPPORT_BOT_URL set to it;
// every scenario here is scripted, so no model and no key are needed.
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { fileURLToPath } from 'node:url'
import { defineAgent, postJson, run } from 'convy-ci'

const config = fileURLToPath(new URL('../convy.yml', import.meta.url))

test('order questions: the bot asks for the number, then answers', async () => {
  const result = await run({ config, agent: 'support_bot_http', scenarios: ['order-*'], k: 3, write: false })
  for (const scenario of result.scenarios) {
    assert.equal(scenario.failed + scenario.agentErrors, 0, `${scenario.id}: ${JSON.stringify(scenario.failures, null, 2)}`)
  }
})

test('a scenario and an agent written in code', async () => {
  // The same bot, reached by a few lines of code instead of convy.yml.
  const bot = defineAgent({
    conversation: ({ session }) => ({
      answer: async (message, { signal }) => {
        const reply = await postJson(`${process.env.SUPPORT_BOT_URL}/api/chat`, { session_id: session, message }, { signal })
        return { text: reply.data.answer, usage: { input: reply.data.usage.input_tokens, output: reply.data.usage.output_tokens } }
      },
    }),
  })
  const result = await run({
    config,
    agent: bot,
    name: 'support_bot_code',
    scenarios: [
      {
        id: 'password-in-one-answer',
        script: ['I forgot my password'],
        checks: [{ contains: 'example.com/reset' }, { not_contains: 'order number', fatal: true }],
      },
    ],
    write: false,
  })
  assert.equal(result.passRate, 1)
  assert.deepEqual(result.scenarios[0].checks.map((c) => [c.held, c.of]), [[1, 1], [1, 1]])
})
