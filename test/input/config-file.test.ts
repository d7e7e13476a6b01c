import assert from 'node:assert/strict'
import { mkdtemp, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, test } from 'node:test'
import { loadProjectConfig, resolveAgent, resolveModels } from '../../src/records/config/load-config.ts'
import { InputError, InputErrors } from '../../src/base/shared/errors.ts'

async function configFile(text: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'convy-config-'))
  await writeFile(join(dir, 'convy.yml'), text)
  return join(dir, 'convy.yml')
}

function messageOf(fn: () => unknown): string {
  try {
    fn()
  } catch (error) {
    assert.ok(error instanceof InputError)
    assert.equal(error.exitCode, 2)
    return error instanceof InputErrors ? error.problems.map((p) => p.message).join('\n') : error.message
  }
  assert.fail('expected an input error')
}

const BOT = `agents:
  support_bot:
    url: \${BOT_URL}/api/chat
    headers: { Authorization: "Bearer \${BOT_TOKEN}" }
    body: { session_id: "{session}", message: "{text}" }
    reply: data.answer
`

describe('convy.yml', () => {
  test('a JSON agent resolves with its variables, which are kept as secrets', async () => {
    const config = await loadProjectConfig(await configFile(BOT))
    const agent = resolveAgent(config, 'support_bot', { BOT_URL: 'http://127.0.0.1:9', BOT_TOKEN: 'tok-123456' })
    assert.equal(agent.config.protocol, 'json')
    assert.ok(agent.config.protocol === 'json' && agent.config.url === 'http://127.0.0.1:9/api/chat')
    assert.ok(agent.config.protocol === 'json' && agent.config.headers.Authorization === 'Bearer tok-123456')
    // An address read from the environment stays readable in errors; only what can carry a secret is kept (issue 24).
    assert.deepEqual(agent.secrets.sort(), ['tok-123456'])
  })

  test('the fingerprint is of the configuration as written, not of the values it reads', async () => {
    const config = await loadProjectConfig(await configFile(BOT))
    const a = resolveAgent(config, 'support_bot', { BOT_URL: 'http://a.test', BOT_TOKEN: 'one-secret' })
    const b = resolveAgent(config, 'support_bot', { BOT_URL: 'http://a.test', BOT_TOKEN: 'another-secret' })
    assert.equal(a.configFingerprint, b.configFingerprint)
    const edited = await loadProjectConfig(await configFile(BOT.replace('data.answer', 'data.text')))
    assert.notEqual(resolveAgent(edited, 'support_bot', { BOT_URL: 'http://a.test', BOT_TOKEN: 'x-secret' }).configFingerprint, a.configFingerprint)
  })

  test('a variable that is not set is named, with its line', async () => {
    const config = await loadProjectConfig(await configFile(BOT))
    const message = messageOf(() => resolveAgent(config, 'support_bot', { BOT_URL: 'http://x.test' }))
    assert.match(message, /^convy\.yml:4: agents\.support_bot\.headers\.Authorization uses \$\{BOT_TOKEN\}, which is not set/)
  })

  test('${NAME:-default} is the default when NAME is unset or empty, and the value when it is set', async () => {
    const config = await loadProjectConfig(
      await configFile('models:\n  base_url: ${CONVY_BASE_URL:-${OPENAI_BASE_URL:-https://api.openai.com/v1}}\n  api_key: ${CONVY_API_KEY:-}\n  user: mini\n  judge: big\n'),
    )
    const need = { user: true, judge: true }
    const defaulted = resolveModels(config, {}, need)
    assert.equal(defaulted.baseURL, 'https://api.openai.com/v1')
    assert.equal(defaulted.apiKey, undefined)
    // A default written in convy.yml is no secret: only values read from the environment are masked.
    assert.deepEqual(defaulted.secrets, [])
    assert.equal(resolveModels(config, { CONVY_BASE_URL: '' }, need).baseURL, 'https://api.openai.com/v1')
    assert.equal(resolveModels(config, { OPENAI_BASE_URL: 'http://gateway.test/v1' }, need).baseURL, 'http://gateway.test/v1')
    const set = resolveModels(config, { CONVY_BASE_URL: 'http://convy.test/v1', OPENAI_BASE_URL: 'http://unused.test', CONVY_API_KEY: 'sk-abc-123' }, need)
    assert.equal(set.baseURL, 'http://convy.test/v1')
    assert.equal(set.apiKey, 'sk-abc-123')
    assert.deepEqual([...new Set(set.secrets)].sort(), ['sk-abc-123'])
  })

  test('${NAME:?message} stops with the message, naming the file and line; a missing } is named too', async () => {
    const config = await loadProjectConfig(await configFile(`agents:\n  bot:\n    url: \${BOT_URL:?start the bot and set BOT_URL, e.g. http://localhost:8080}/chat\n    body: { m: "{text}" }\n    reply: a\n`))
    assert.equal(messageOf(() => resolveAgent(config, 'bot', { BOT_URL: '' })), 'convy.yml:3: agents.bot.url needs ${BOT_URL}: start the bot and set BOT_URL, e.g. http://localhost:8080')
    const agent = resolveAgent(config, 'bot', { BOT_URL: 'http://127.0.0.1:7' })
    assert.ok(agent.config.protocol === 'json' && agent.config.url === 'http://127.0.0.1:7/chat')
    const unclosed = await loadProjectConfig(await configFile('agents:\n  bot:\n    url: ${BOT_URL:-http://localhost\n    body: {}\n    reply: a\n'))
    assert.equal(messageOf(() => resolveAgent(unclosed, 'bot', {})), 'convy.yml:3: agents.bot.url has ${BOT_URL:- without its closing }')
  })

  test('an invalid value read from the environment is not printed', async () => {
    const config = await loadProjectConfig(await configFile(BOT))
    const message = messageOf(() => resolveAgent(config, 'support_bot', { BOT_URL: 'supersecretvalue', BOT_TOKEN: 't0k3n' }))
    assert.match(message, /convy\.yml:3: agents\.support_bot\.url: is not a URL/)
    assert.doesNotMatch(message, /supersecretvalue/)
  })

  test('an unknown agent suggests the closest name', async () => {
    const config = await loadProjectConfig(await configFile(BOT))
    assert.match(messageOf(() => resolveAgent(config, 'suport_bot', {})), /no agent "suport_bot" — did you mean "support_bot"\? \(agents: echo, support_bot\)/)
  })

  test('an unknown key in an agent is reported at its line with a suggestion', async () => {
    const config = await loadProjectConfig(await configFile(`agents:\n  bot:\n    url: http://x.test\n    body: {}\n    reply: a\n    headrs: {}\n`))
    assert.match(messageOf(() => resolveAgent(config, 'bot', {})), /^convy\.yml:6: agents\.bot: unknown key `headrs` — did you mean `headers`\?/)
  })

  test('typos at every depth are all reported at once, in the file\'s order, each with its hint; a misspelt required key is one problem, not two', async () => {
    const text = `agents:\n  bot:\n    url: http://x.test\n    bdy: {}\n    replly: a\n    tls: { caa: ca.pem }\nmodels:\n  temprature: 0.2\n  rate_limits:\n    m: { request_per_minute: 5 }\n`
    const config = await loadProjectConfig(await configFile(text))
    assert.equal(
      messageOf(() => resolveAgent(config, 'bot', {})),
      [
        'convy.yml:4: agents.bot: unknown key `bdy` — did you mean `body`?',
        'convy.yml:5: agents.bot: unknown key `replly` — did you mean `reply`?',
        'convy.yml:6: agents.bot.tls: unknown key `caa` — did you mean `ca`?',
      ].join('\n'),
    )
    assert.equal(
      messageOf(() => resolveModels(config, {}, { user: false, judge: false })),
      ['convy.yml:8: models: unknown key `temprature` — did you mean `temperature`?', 'convy.yml:10: models.rate_limits.m: unknown key `request_per_minute` — did you mean `requests_per_minute`?'].join('\n'),
    )
  })

  test('echo is built in, and a string agent is a module path relative to convy.yml', async () => {
    const path = await configFile('agents:\n  custom: agents/custom.ts\n')
    const config = await loadProjectConfig(path)
    assert.deepEqual(resolveAgent(config, 'echo', {}).config, { protocol: 'echo' })
    const custom = resolveAgent(config, 'custom', {})
    assert.ok(custom.config.protocol === 'module' && custom.config.module === join(path, '..', 'agents/custom.ts'))
  })

  test('models: variables are read only when a model is needed; OPENAI_* are the defaults', async () => {
    const config = await loadProjectConfig(await configFile('models:\n  api_key: ${CONVY_API_KEY}\n  user: mini\n  judge: big\n'))
    const offline = resolveModels(config, {}, { user: false, judge: false })
    assert.equal(offline.apiKey, undefined)
    assert.match(messageOf(() => resolveModels(config, {}, { user: true, judge: false })), /convy\.yml:2: models\.api_key uses \$\{CONVY_API_KEY\}/)
    const online = resolveModels(config, { CONVY_API_KEY: 'sk-test-key', OPENAI_BASE_URL: 'http://127.0.0.1:1/v1' }, { user: true, judge: true })
    assert.equal(online.apiKey, 'sk-test-key')
    assert.equal(online.baseURL, 'http://127.0.0.1:1/v1')
    assert.ok(online.secrets.includes('sk-test-key'))
  })

  test('a model the scenarios need must be named', async () => {
    const config = await loadProjectConfig(await configFile('models:\n  user: mini\n'))
    assert.match(messageOf(() => resolveModels(config, {}, { user: true, judge: true })), /models\.judge is not set, and the selected scenarios need the judge/)
  })

  test('a bound a number may not reach is worded as one; a bound it may reach as at least / at most', async () => {
    const cases: [string, RegExp][] = [
      ['timeout: 0', /convy\.yml:3: models\.timeout: must be more than 0/],
      ['max_tries: 0', /convy\.yml:3: models\.max_tries: must be at least 1/],
      ['temperature: 3', /convy\.yml:3: models\.temperature: must be at most 2/],
    ]
    for (const [line, expected] of cases) {
      const config = await loadProjectConfig(await configFile(`models:\n  user: mini\n  ${line}\n`))
      assert.match(messageOf(() => resolveModels(config, {}, { user: true, judge: false })), expected)
    }
  })

  test('an unknown top-level key', async () => {
    await assert.rejects(loadProjectConfig(await configFile('model:\n  user: x\n')), /convy\.yml:1: unknown key `model` — did you mean `models`\?/)
  })
})
