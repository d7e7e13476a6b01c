import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { makeProject, runInProcess } from '../cli/harness.ts'
import { convyYml } from '../support/convy-yml.ts'
import { parseYamlFile } from '../../src/base/input/yaml-file.ts'
import { loadSchemaChecker } from '../../src/records/scenario/tool-input.ts'
import { parseScenario } from '../../src/records/scenario/load-scenarios.ts'
import { scenarioFingerprint } from '../../src/records/scenario/scenario.ts'
import { REFUND_TOOLS } from './scenario-tools.ts'

// Bad tools stop the run before anything is played (exit 2), each named at its line; and the tools
// are part of what makes a scenario the same scenario.

const YML = `${convyYml({ models: null, agents: '{}' })}tools:
  shop:
    get_order:
      input: { order_id: string }
      answers: [{ result: { status: shipped } }]
`

async function runWith(scenario: string, yml = YML): Promise<{ code: number; stderr: string }> {
  const dir = await makeProject({ 'convy.yml': yml, 'scenarios/s.yml': scenario })
  return runInProcess(['run', 'echo'], { cwd: dir })
}

describe('bad tools: exit 2 with file:line, nothing played', () => {
  const cases: [string, string, RegExp][] = [
    [
      'an answer whose `when` the input schema refuses',
      'script: [hi]\ntools:\n  get_order:\n    input: { order_id: integer }\n    answers:\n      - when: { order_id: O-17 }\n        result: { status: late }\n      - result: {}\nchecks: [{ contains: hi }]\n',
      /scenarios\/s\.yml:6: tools\.get_order\.answers\.0\.when\.order_id: "O-17" does not match get_order's input schema for "order_id" \(order_id must be integer\), so no call could match this answer/,
    ],
    [
      'an answer naming an argument the tool does not take',
      'script: [hi]\ntools:\n  get_order:\n    input: { order_id: string }\n    answers:\n      - when: { id: O-17 }\n        result: {}\nchecks: [{ contains: hi }]\n',
      /s\.yml:6: tools\.get_order\.answers\.0\.when\.id: "id" is not an argument of get_order \(its arguments: order_id\)/,
    ],
    [
      'a fault that does nothing',
      'script: [hi]\ntools:\n  get_order:\n    input: { order_id: string }\n    answers: [{ result: {} }]\n    faults:\n      - { call: 1 }\nchecks: [{ contains: hi }]\n',
      /s\.yml:7: tools\.get_order\.faults\.0: a fault does something: `error:`/,
    ],
    [
      'an end-state path that no tool sets',
      `script: [hi]\n${REFUND_TOOLS.replace('state: refunds.O-17', 'state: refunds_by_id.O-17')}`,
      /s\.yml:\d+: end_state\.0: no tool sets `refunds_by_id\.O-17`, so it could never change \(the tools set: refunds\.\{order_id\}\)/,
    ],
    [
      '`never:` naming a tool the scenario does not define',
      'script: [hi]\ntools: shop\nend_state:\n  - { never: delete_order }\n',
      /s\.yml:4: end_state\.0: no tool "delete_order" in this scenario — did you mean "get_order"\? \(its tools: get_order\); a tool the agent is not given cannot be called: define it to check that it is not/,
    ],
    ['an unknown tool set', 'script: [hi]\ntools: [shop, orders]\nchecks: [{ contains: hi }]\n', /s\.yml:2: tools: no tool set "orders" \(convy\.yml's tool sets: shop\)/],
    [
      'a placeholder that names no argument',
      'script: [hi]\ntools:\n  get_order:\n    input: { order_id: string }\n    answers: [{ result: { id: "{orderid}" } }]\nchecks: [{ contains: hi }]\n',
      /s\.yml:5: tools\.get_order\.answers\.0\.result: \{orderid\} names no argument of get_order \(its arguments: order_id\)/,
    ],
    [
      'a short-form type that is not one',
      'script: [hi]\ntools:\n  get_order:\n    input: { order_id: text }\nchecks: [{ contains: hi }]\n',
      /s\.yml:4: tools\.get_order\.input\.order_id: `order_id: "text"` is not a type/,
    ],
  ]
  for (const [name, scenario, message] of cases) {
    test(name, async () => {
      const result = await runWith(scenario)
      assert.equal(result.code, 2, result.stderr)
      assert.match(result.stderr, message)
      assert.doesNotMatch(result.stderr, /attempt/)
    })
  }

  test("a bad tool in convy.yml's set is named at convy.yml's line", async () => {
    const yml = YML.replace('answers: [{ result: { status: shipped } }]', 'answers: [{ result: { status: shipped } }]\n      faults: [{ call: 1, rate: 0.5, error: x }]')
    const result = await runWith('script: [hi]\ntools: shop\nchecks: [{ contains: hi }]\n', yml)
    assert.equal(result.code, 2, result.stderr)
    assert.match(result.stderr, /convy\.yml:\d+: tools\.shop\.get_order\.faults\.0: `call:` \(the Nth call\) and `rate:` \(a share of the calls\) do not go together/)
  })
})

test('a tools_host this machine cannot listen on: exit 2 at its line in convy.yml, before anything runs', async () => {
  const yml = `${convyYml({ models: null, agents: ['  bot:\n    url: http://127.0.0.1:9/chat\n    body: { message: "{text}" }\n    reply: answer\n    tools_host: 203.0.113.7\n'] })}`
  const dir = await makeProject({ 'convy.yml': yml, 'scenarios/s.yml': 'script: [hi]\nchecks: [{ contains: hi }]\n' })
  const result = await runInProcess(['run', 'bot'], { cwd: dir })
  assert.equal(result.code, 2, result.stderr)
  assert.match(result.stderr, /convy\.yml:\d+: agents\.bot\.tools_host: the scenario's tools cannot listen on 203\.0\.113\.7 \(EADDRNOTAVAIL\)/)
})

describe("the tools are part of the scenario's identity", () => {
  test('a tool, a fault or an end-state check changed: another fingerprint (the gate sees an edited scenario, the model cache keys on it)', async () => {
    await loadSchemaChecker()
    const fingerprintOf = (text: string) => scenarioFingerprint(parseScenario(parseYamlFile('s.yml', `script: [hi]\n${text}`), 's'))
    const base = fingerprintOf(REFUND_TOOLS)
    assert.equal(fingerprintOf(REFUND_TOOLS), base)
    assert.notEqual(fingerprintOf(REFUND_TOOLS.replace('upstream timeout', 'upstream down')), base)
    assert.notEqual(fingerprintOf(REFUND_TOOLS.replace('{ call: 1,', '{ call: 2,')), base)
    assert.notEqual(fingerprintOf(REFUND_TOOLS.replace('times: 1', 'times: 2')), base)
    assert.notEqual(fingerprintOf(REFUND_TOOLS.replace('status: delayed', 'status: late')), base)
    // The description is for people, but a tool's is what the agent's model reads: it counts too.
    assert.notEqual(fingerprintOf(REFUND_TOOLS.replace('Look up an order', 'Find an order')), base)
  })
})
