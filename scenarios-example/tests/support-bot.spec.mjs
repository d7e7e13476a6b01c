// The example bot from Vitest (`npx vitest run scenarios-example/tests/support-bot.spec.mjs`, with
// vitest installed). Like support-bot.test.mjs (node:test), it needs the bot running
// (PORT=8080 node scenarios-example/server.mjs) and SUPPORT_BOT_URL set to it; no model is called.
import { fileURLToPath } from 'node:url'
import { describe, expect, test } from 'vitest'
import { run } from 'convy-ci'

const config = fileURLToPath(new URL('../convy.yml', import.meta.url))

describe('support bot', () => {
  // Conversations take seconds: raise Vitest's 5-second default.
  test('order questions pass in every attempt', { timeout: 120_000 }, async () => {
    const result = await run({ config, agent: 'support_bot_http', scenarios: ['order-*'], k: 3, write: false })
    expect(result.scenarios.map((s) => [s.id, s.status])).toEqual([['order-status', 'passing']])
    expect(result.agentErrors).toBe(0)
  })

  test('a scenario written here', { timeout: 60_000 }, async () => {
    const result = await run({
      config,
      agent: 'support_bot_http',
      scenarios: [{ id: 'password', script: ['I forgot my password'], checks: [{ contains: 'example.com/reset' }] }],
      write: false,
    })
    expect(result.passRate).toBe(1)
  })
})
