import assert from 'node:assert/strict'
import { execFile, type ChildProcess } from 'node:child_process'
import { access, mkdtemp, readdir, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { after, before, describe, test } from 'node:test'
import { startExampleBot } from '../support/example-bot.ts'
import { defineAgent, InputError, postJson, run } from '../../src/index.ts'
import { judgeByRule, scriptedUser, startFakeModelServer, type FakeModelServer } from '../../src/entry/testing/index.ts'

const ROOT = fileURLToPath(new URL('../../', import.meta.url))
const EXAMPLE = join(ROOT, 'scenarios-example')

describe('run() from node:test, against the example bot over HTTP', () => {
  let bot: { url: string; process: ChildProcess }
  let models: FakeModelServer
  let dir: string
  before(async () => {
    bot = await startExampleBot()
    models = await startFakeModelServer({
      user: scriptedUser(['where is my package?', 'it is 48213', 'ok, thanks']),
      judge: judgeByRule((claim, dialogue) => (claim.includes('Friday') ? dialogue.some((l) => l.role === 'agent' && l.text.includes('Friday')) : true)),
    })
    dir = await mkdtemp(join(tmpdir(), 'convy-run-api-'))
  })
  after(async () => {
    bot.process.kill()
    await models.close()
    await rm(dir, { recursive: true, force: true })
  })

  test("the project's agent and scenarios by name and glob: the same run folder as the CLI, a plain result", async () => {
    const results = join(dir, 'results')
    const result = await run({ config: join(EXAMPLE, 'convy.yml'), agent: 'support_bot_http', scenarios: ['order-*'], k: 2, results, env: { SUPPORT_BOT_URL: bot.url } })
    assert.equal(result.agent, 'support_bot_http')
    assert.deepEqual(
      result.scenarios.map((s) => [s.id, s.status, s.attempts, s.passed, s.failed, s.agentErrors, s.noVerdicts, s.passRate]),
      [['order-status', 'passing', 2, 2, 0, 0, 0, 1]],
    )
    assert.deepEqual(result.scenarios[0]!.checks, [
      { kind: 'contains', value: 'order number', held: 2, of: 2 },
      { kind: 'regex', value: 'arrives? on friday', held: 2, of: 2 },
      { kind: 'not_contains', value: 'sorry', held: 2, of: 2 },
    ])
    assert.deepEqual([result.attempts, result.passed, result.passRate, result.exitCode, result.complete], [2, 2, 1, 0, true])
    assert.equal(result.dir, join(results, ...result.id.split('/')))
    assert.deepEqual((await readdir(result.dir!)).sort(), ['attempts.jsonl', 'report.html', 'run.json'])
    assert.equal(result.report, join(result.dir!, 'report.html'))
    await access(join(results, 'index.html'))
    const manifest = JSON.parse(await readFile(join(result.dir!, 'run.json'), 'utf8')) as { settings: { k: number; scenarioGlobs: string[] }; state: string }
    assert.deepEqual([manifest.state, manifest.settings.k, manifest.settings.scenarioGlobs], ['finished', 2, ['order-*']])
  })

  test('an agent and scenarios written in code, no convy.yml, write: false: nothing is left on disk', async () => {
    const cwd = await mkdtemp(join(tmpdir(), 'convy-run-api-empty-'))
    const sessions = new Set<string>()
    const agent = defineAgent({
      version: 'relay-1',
      conversation: ({ session }) => {
        sessions.add(session)
        return {
          answer: async (message, { signal }) => {
            const reply = await postJson<{ data: { answer: string; usage: { input_tokens: number; output_tokens: number } } }>(`${bot.url}/api/chat`, { session_id: session, message }, { signal })
            return { text: reply.data.answer, usage: { input: reply.data.usage.input_tokens, output: reply.data.usage.output_tokens } }
          },
        }
      },
    })
    let printed = ''
    const result = await run({
      cwd,
      agent,
      name: 'relay',
      k: 3,
      write: false,
      parallel: 1,
      verbose: true,
      output: { write: (text) => void (printed += text) },
      scenarios: [
        { id: 'password', script: ['I forgot my password'], checks: [{ contains: 'example.com/reset' }] },
        { id: 'unknown-order', description: 'A number the shop does not know', script: ['where is my order?', 'it is 99999'], checks: [{ regex: "can't find" }, { contains: 'on its way' }] },
      ],
    })
    assert.deepEqual(
      result.scenarios.map((s) => [s.id, s.status, s.passed, s.failed]),
      [
        ['password', 'passing', 3, 0],
        ['unknown-order', 'failing', 0, 3],
      ],
    )
    assert.equal(result.scenarios[1]!.description, 'A number the shop does not know')
    assert.deepEqual(result.scenarios[1]!.checks.map((c) => [c.kind, c.held, c.of]), [['regex', 3, 3], ['contains', 0, 3]])
    assert.deepEqual(result.scenarios[1]!.failures[0], { attempt: 1, verdict: 'failed', why: ['contains on its way: none of the 2 answers contains it'] })
    assert.equal(result.passRate, 0.5)
    assert.equal(sessions.size, 6, 'a fresh conversation per attempt')
    assert.deepEqual([result.dir, result.report], [null, null])
    assert.deepEqual(await readdir(cwd), [], 'nothing written where it ran')
    // output and verbose: the dialogue as --verbose prints it, then the summary the CLI prints.
    assert.match(printed, /── password · attempt 1 of 3 ──\nUser: I forgot my password\nAgent \((?:\d+ ms|\d\.\d s) · \d+ in \/ \d+ out tokens\): .*example\.com\/reset/)
    assert.match(printed, /relay: pass rate 50% · 3 of 6/)
    await rm(cwd, { recursive: true, force: true })
  })

  test('a scenario in code with user and judge, against models given in code; a fatal check saves the calls it should', async () => {
    const cwd = await mkdtemp(join(tmpdir(), 'convy-run-api-models-'))
    models.reset()
    const result = await run({
      cwd,
      agent: defineAgent({
        conversation: ({ session }) => ({
          answer: async (message) => ({ text: (await postJson<{ data: { answer: string } }>(`${bot.url}/api/chat`, { session_id: session, message })).data.answer }),
        }),
      }),
      models: { base_url: models.url, api_key: 'test-key', user: 'user-model', judge: 'judge-model' },
      write: false,
      scenarios: [
        { id: 'status', user: 'Ask where your package is; give 48213 when asked.', judge: ['The agent said it arrives on Friday'] },
        { id: 'never-ask', user: 'Ask where your package is.', judge: ['Anything'], checks: [{ not_contains: 'order number', fatal: true }] },
      ],
    })
    assert.deepEqual(result.scenarios.map((s) => [s.id, s.status]), [['status', 'passing'], ['never-ask', 'failing']])
    assert.deepEqual(result.scenarios[0]!.claims, [{ text: 'The agent said it arrives on Friday', held: 1, of: 1 }])
    assert.deepEqual(result.scenarios[1]!.claims, [{ text: 'Anything', held: 0, of: 0 }], 'the judge was not asked once the fatal check fired')
    // status: 3 lines + STOP, then the judge; never-ask: one line, the bot asks for the number, and it ends.
    assert.deepEqual(
      { user: models.requests.filter((r) => r.kind === 'user').length, judge: models.requests.filter((r) => r.kind === 'judge').length },
      { user: 5, judge: 1 },
    )
    await rm(cwd, { recursive: true, force: true })
  })

  test("a failure the simulated user's review blames on it is a user error: counted apart, with the reviewer's reason", async () => {
    const cwd = await mkdtemp(join(tmpdir(), 'convy-run-api-review-'))
    const reviewed = await startFakeModelServer({
      user: scriptedUser(['where is my package?']),
      judge: judgeByRule(() => ({ pass: false, reason: 'no delivery day was given' })),
      review: () => ({ mistakes: [{ kind: 'stopped_early', line: 1, note: 'left before giving the number' }], reason: 'the user left before giving the order number', decided: true }),
    })
    try {
      const result = await run({
        cwd,
        agent: defineAgent({ conversation: () => ({ answer: () => ({ text: 'What is your order number?' }) }) }),
        models: { base_url: reviewed.url, api_key: 'test-key', user: 'user-model', judge: 'judge-model' },
        review: true,
        write: false,
        scenarios: [{ id: 'status', user: 'Ask where your package is; give 48213 when asked.', judge: ['The agent said when it arrives'] }],
      })
      const [status] = result.scenarios
      // The user_error attempt is replayed once, unreviewed (attempt 2 = k + 1): the replay's failure counts.
      assert.deepEqual([status!.userErrors, status!.failed, status!.passed, result.userErrors, result.passRate], [1, 1, 0, 1, 0])
      assert.deepEqual(status!.failures, [
        { attempt: 1, verdict: 'user_error', why: ["the simulated user's own mistake: the user left before giving the order number", 'The agent said when it arrives: no delivery day was given'] },
        { attempt: 2, verdict: 'failed', why: ['The agent said when it arrives: no delivery day was given'] },
      ])
      assert.equal(reviewed.requests.filter((r) => r.kind === 'review').length, 1)
    } finally {
      await reviewed.close()
      await rm(cwd, { recursive: true, force: true })
    }
  })

  test('bad input throws the typed errors the CLI prints, naming the option or the scenario, before anything runs', async () => {
    const before = models.requests.length
    const rejects = async (options: unknown, message: RegExp) =>
      assert.rejects(run(options as Parameters<typeof run>[0]), (error: unknown) => {
        assert.ok(error instanceof InputError, String(error))
        assert.equal(error.exitCode, 2)
        assert.match(error.message, message)
        return true
      })
    const agent = defineAgent({ conversation: () => ({ answer: () => ({ text: 'hi' }) }) })
    await rejects({ agent, k: 0, scenarios: [{ id: 'a', script: ['x'], checks: [{ contains: 'x' }] }] }, /^run\(\): k: /)
    await rejects({ agent, scenario: ['a'] }, /^run\(\): unknown key `scenario` — did you mean `scenarios`\?/)
    await rejects({ agent, cwd: dir, scenarios: [{ id: 'a', script: ['x'], checks: [{ contain: 'x' }] }] }, /^scenarios\[0\] \(a\): checks\.0: unknown check `contain`/)
    await rejects({ agent, cwd: dir, scenarios: [{ script: ['x'], checks: [{ contains: 'x' }] }] }, /^scenarios\[0\]: a scenario written in code needs an `id`/)
    await rejects({ agent: 'support_bot', cwd: dir }, /^run\(\): no convy\.yml in .* or a folder above it/)
    await rejects({ agent, cwd: dir, scenarios: [{ id: 'j', user: 'hi', judge: ['ok'] }], models: { base_url: models.url } }, /^run\(\): models\.user is not set/)
    assert.equal(models.requests.length, before)
  })

  test('scenarios-example/tests: the node:test example runs against the built package', async () => {
    // Without NODE_TEST_CONTEXT, which would make the child report to this runner instead of printing.
    const { NODE_TEST_CONTEXT: _inherited, ...env } = process.env
    const { stdout } = await promisify(execFile)(process.execPath, ['--test', '--test-reporter=tap', join(EXAMPLE, 'tests', 'support-bot.test.mjs')], { env: { ...env, SUPPORT_BOT_URL: bot.url } })
    assert.match(stdout, /# pass 2\n/)
    assert.match(stdout, /# fail 0\n/)
  })
})
