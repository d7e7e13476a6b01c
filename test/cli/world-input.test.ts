import assert from 'node:assert/strict'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { describe, test } from 'node:test'
import { makeProject, runInProcess } from './harness.ts'
import { modelsYml } from '../support/convy-yml.ts'

/** Mistakes in a scenario's world stop the run before anything is played: exit 2, with file:line. */
async function refused(files: Record<string, string>, env: Record<string, string> = {}): Promise<string> {
  const dir = await makeProject({ 'convy.yml': modelsYml({ apiKey: 'k', user: null, judge: null }) + 'agents: {}\n', ...files })
  const result = await runInProcess(['run', files['convy.yml'] ? 'bot' : 'echo'], { cwd: dir, env })
  assert.equal(result.code, 2, result.stderr)
  assert.equal(existsSync(join(dir, 'results')), false, 'nothing ran')
  return result.stderr
}

const script = 'script: [hello]\n'

describe('bad world input: exit 2 with file:line, before anything runs', () => {
  test('a check naming a context key that no context gives, with no set-up', async () => {
    const stderr = await refused({ 'scenarios/a.yml': `${script}context: { customer: ann }\nchecks:\n  - contains: "{context.order_id}"\n` })
    assert.match(stderr, /scenarios\/a\.yml:4: checks\.0\.contains uses \{context\.order_id\}, but no context gives it \(convy\.yml or the scenario\), and no set-up is configured to add it/)
  })

  test('with a set-up, the same check waits for what set-up answers', async () => {
    const dir = await makeProject({
      'convy.yml': modelsYml({ apiKey: 'k', user: null, judge: null }) + 'agents: {}\n',
      'scenarios/a.yml': `${script}setup: { url: "http://127.0.0.1:9/seed" }\nchecks:\n  - contains: "{context.order_id}"\n`,
    })
    // Port 9 (discard) is closed: set-up fails, as an agent error of kind setup, not as bad input.
    const result = await runInProcess(['run', 'echo'], { cwd: dir })
    assert.equal(result.code, 1, result.stderr)
    assert.match(result.stderr, /set-up error, first in a #1: set-up failed: could not reach POST http:\/\/127\.0\.0\.1:9\/seed/)
  })

  test('a set-up URL with an unset variable', async () => {
    const stderr = await refused({ 'scenarios/a.yml': `${script}checks: [{ contains: hello }]\nsetup:\n  url: \${SEED_URL}/seed\n` })
    assert.match(stderr, /scenarios\/a\.yml:4: setup\.url uses \$\{SEED_URL\}, which is not set/)
  })

  test('a set-up template naming a key only set-up could give', async () => {
    const stderr = await refused({ 'scenarios/a.yml': `${script}checks: [{ contains: hello }]\nsetup:\n  url: http://127.0.0.1:9/seed/{context.tenant}\n` })
    assert.match(stderr, /scenarios\/a\.yml:4: setup\.url uses \{context\.tenant\}, but set-up fills it in before it runs/)
  })

  test('a limit that is not a positive number, in a scenario and in convy.yml', async () => {
    const inScenario = await refused({ 'scenarios/a.yml': `${script}checks: [{ contains: hello }]\nlimits:\n  answer_ms: 0\n` })
    assert.match(inScenario, /scenarios\/a\.yml:4: limits\.answer_ms/)
    const inConfig = await refused({
      'convy.yml': `${modelsYml({ apiKey: 'k', user: null, judge: null })}agents:\n  bot:\n    url: http://127.0.0.1:9/chat\n    body: { message: "{text}" }\n    reply: answer\n    limits: { agent_tokens: -5 }\n`,
      'scenarios/a.yml': `${script}checks: [{ contains: hello }]\n`,
    })
    assert.match(inConfig, /convy\.yml:9: agents\.bot\.limits\.agent_tokens/)
  })

  test("an agent's request template naming a context key no scenario context gives", async () => {
    const stderr = await refused({
      'convy.yml': `${modelsYml({ apiKey: 'k', user: null, judge: null })}agents:\n  bot:\n    url: http://127.0.0.1:9/chat\n    body: { message: "{text}", order: "{context.order_id}" }\n    reply: answer\n`,
      'scenarios/a.yml': `${script}checks: [{ contains: hello }]\n`,
      'scenarios/b.yml': `${script}checks: [{ contains: hello }]\ncontext: { order_id: O-1 }\n`,
    })
    assert.match(stderr, /convy\.yml:7: agents\.bot\.body\.order uses \{context\.order_id\} \(scenario a\)/)
    assert.doesNotMatch(stderr, /scenario b\)/)
  })

  test("cost_usd without the agent's price", async () => {
    const stderr = await refused({ 'scenarios/a.yml': `${script}checks: [{ contains: hello }]\nlimits: { cost_usd: 0.01 }\n` })
    assert.match(stderr, /scenarios\/a\.yml:3: limits\.cost_usd is the agent's cost at its `price`/)
  })
})
