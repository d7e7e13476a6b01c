// A test that fails on purpose, to show what a failing scenario prints: docs/library.md shows its
// output. `node --test scenarios-example/tests/failing-on-purpose.mjs`; no bot to start, no model.
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { fileURLToPath } from 'node:url'
import { run } from 'convy-ci'

const config = fileURLToPath(new URL('../convy.yml', import.meta.url))

/** A scenario's attempts that did not pass: how each ended, what broke, and the dialogue. */
function whatWentWrong(scenario) {
  return scenario.played
    .filter((attempt) => attempt.verdict !== 'passed')
    .map((attempt) => [
      `${scenario.id} #${attempt.attempt}: ${attempt.verdict}, ended by ${attempt.endedBy}`,
      ...attempt.checks.filter((c) => !c.pass).map((c) => `  ✗ ${c.kind} ${c.value}: ${c.detail}`),
      ...attempt.claims.filter((c) => !c.pass).map((c) => `  ✗ ${c.claim}: ${c.reason}`),
      ...attempt.dialogue.map((line) => `  ${line.role}: ${line.text}`),
    ].join('\n'))
    .join('\n\n')
}

test('an order status comes with a tracking link', async () => {
  const result = await run({
    config,
    agent: 'support_bot',
    scenarios: [{ id: 'tracking-link', script: ['Where is my package?', 'It is 48213'], checks: [{ contains: 'tracking' }] }],
    write: false,
  })
  const [scenario] = result.scenarios
  assert.equal(scenario.status, 'passing', whatWentWrong(scenario))
})
