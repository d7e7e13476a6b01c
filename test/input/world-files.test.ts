import assert from 'node:assert/strict'
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, test } from 'node:test'
import { objectFile, parseYamlFile } from '../../src/base/input/yaml-file.ts'
import { prepareWorld } from '../../src/play/world/prepare-world.ts'
import { makeProject } from '../support/project.ts'
import { parseScenario } from '../../src/records/scenario/load-scenarios.ts'
import { scenarioFingerprint } from '../../src/records/scenario/scenario.ts'
import { resolveAgent, type ProjectConfig } from '../../src/records/config/load-config.ts'

const BASE = 'script: [hello]\nchecks: [{ contains: hello }]\n'
const scenario = (extra: string) => parseScenario(parseYamlFile('scenarios/a.yml', BASE + extra), 'a')

describe("a scenario's world is part of its identity", () => {
  test('context, set-up, tear-down, the simulated user, limits and stop_if each change the fingerprint', () => {
    const plain = scenarioFingerprint(scenario(''))
    const variants = [
      'context: { order_id: O-1 }\n',
      'context: { order_id: O-2 }\n',
      'setup: { url: "http://seed.test/seed" }\n',
      'setup: { module: world.ts }\n',
      'teardown: { url: "http://seed.test/clear" }\n',
      'simulated_user: { temperature: 0.2 }\n',
      'limits: { answer_ms: 3000 }\n',
      'limits: { answer_ms: 4000 }\n',
      'stop_if: [The agent gave up]\n',
    ].map((extra) => scenarioFingerprint(scenario(extra)))
    assert.equal(new Set([plain, ...variants]).size, 1 + variants.length)
  })

  test('a scenario keeps its ${VAR}s as written: no secret in its identity or in run.json', () => {
    const s = scenario('setup:\n  url: ${SEED_URL}/seed\n  headers: { Authorization: "Bearer ${SEED_TOKEN}" }\n')
    assert.deepEqual(s.setup, { kind: 'http', url: '${SEED_URL}/seed', method: 'POST', headers: { Authorization: 'Bearer ${SEED_TOKEN}' } })
    assert.deepEqual(scenario('setup: { module: world.ts }\n').setup, { kind: 'module', module: 'world.ts', export: 'setup' })
    assert.deepEqual(scenario('teardown: { module: world.ts }\n').teardown, { kind: 'module', module: 'world.ts', export: 'teardown' })
  })

  test("an agent's world in convy.yml is part of its configuration's fingerprint, which resume checks", () => {
    const config = (world: string): ProjectConfig => {
      const file = parseYamlFile('convy.yml', `agents:\n  bot:\n    url: http://bot.test/chat\n    body: { message: "{text}" }\n    reply: answer\n${world}`)
      return { file, projectDir: '/p', models: {}, agents: (file.data as { agents: Record<string, unknown> }).agents }
    }
    const of = (world: string) => resolveAgent(config(world), 'bot', {}).configFingerprint
    const prints = ['', '    context: { shop: acme }\n', '    setup: { url: "http://seed.test" }\n', '    teardown: { url: "http://seed.test" }\n', '    limits: { answer_ms: 10 }\n'].map(of)
    assert.equal(new Set(prints).size, prints.length)
  })
})

describe("the code of a world's modules", () => {
  test('is fingerprinted, so the agent recorded in run.json changes with it (and resume refuses)', async () => {
    const dir = await makeProject({ 'scenarios/seed.mjs': 'export function setup() { return { order_id: "1" } }\n' })
    const s = { ...scenario('setup: { module: seed.mjs }\n'), file: 'scenarios/a.yml' }
    const options = { env: {}, projectDir: dir, canStripTypes: false, fetch, agent: { world: {}, templates: {}, price: null, config: objectFile('convy.yml', null), configPath: ['agents', 'bot'] } }
    const before = (await prepareWorld([s], options)).modules
    assert.equal((await prepareWorld([scenario('')], options)).modules, null)
    await writeFile(join(dir, 'scenarios/seed.mjs'), 'export function setup() { return { order_id: "2" } }\n')
    const after = (await prepareWorld([s], options)).modules
    assert.ok(before !== null && after !== null)
    assert.notEqual(before, after)
  })
})
