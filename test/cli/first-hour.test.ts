import assert from 'node:assert/strict'
import { mkdtemp } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, test } from 'node:test'
import { judgeByRule, startFakeModelServer, type FakeModelServer } from '../../src/entry/testing/fake-model-server.ts'
import { makeProject, onlyRun, readJsonLines, runInProcess } from './harness.ts'

// Issue 24, the first hour: what a new user meets first, driven through the CLI as they would.

const KEY = 'sk-first-hour-0123456789'

describe('the first hour, through the CLI', () => {
  let models: FakeModelServer
  before(async () => {
    models = await startFakeModelServer({ apiKey: KEY, judge: judgeByRule(() => true) })
  })
  after(async () => models.close())

  test('only OPENAI_API_KEY (and OPENAI_BASE_URL) set: convy.yml that leaves them out reaches the gateway with that key', async () => {
    const dir = await makeProject({
      'convy.yml': 'models:\n  user: user-model\n  judge: judge-model\nagents: {}\n',
      'scenarios/hello.yml': 'user: Say hello, then stop.\njudge:\n  - The agent answered\nmax_turns: 2\n',
    })
    const result = await runInProcess(['run', 'echo'], { cwd: dir, env: { OPENAI_API_KEY: KEY, OPENAI_BASE_URL: models.url } })
    assert.equal(result.code, 0, result.stderr)
    assert.match(result.stdout, /echo: pass rate 100% · 1 of 1/)
    assert.ok(models.requests.some((r) => r.kind === 'judge'), 'the judge was asked')

    // Without the key, the run stops before anything plays, naming the variable to set.
    const missing = await runInProcess(['run', 'echo'], { cwd: dir, env: {} })
    assert.equal(missing.code, 2)
    assert.match(missing.stderr, /convy\.yml:\d+: the models need a key: set OPENAI_API_KEY \(in the environment or \.env\)/)
  })

  test('a scenario with three errors: every one at once, each with file:line, a duplicate id too', async () => {
    const dir = await makeProject({
      'convy.yml': 'agents: {}\n',
      'scenarios/one.yml': 'id: same\nscript: [hi]\nchecks: [{contains: hi}]\n',
      'scenarios/two.yml': 'id: same\nscirpt: [hi]\nmax_turns: many\nchecks:\n  - contians: hi\n',
    })
    const result = await runInProcess(['run', 'echo'], { cwd: dir })
    assert.equal(result.code, 2)
    const lines = result.stderr.trim().split('\n')
    assert.ok(lines.some((l) => /scenarios\/two\.yml:2: unknown key `scirpt` — did you mean `script`\?/.test(l)), result.stderr)
    assert.ok(lines.some((l) => /scenarios\/two\.yml:3: max_turns: expected/.test(l)), result.stderr)
    assert.ok(lines.some((l) => /scenarios\/two\.yml:5: checks\.0: unknown check `contians`/.test(l)), result.stderr)
    assert.ok(lines.some((l) => /scenarios\/two\.yml:1: needs `user`/.test(l)), result.stderr)
    // The file with mistakes is reported in full; its id is not taken for another file's duplicate.
    assert.ok(!existsAnyRun(result.stdout))
  })

  test('a duplicate id is named with its line', async () => {
    const dir = await makeProject({
      'convy.yml': 'agents: {}\n',
      'scenarios/one.yml': 'id: same\nscript: [hi]\nchecks: [{contains: hi}]\n',
      'scenarios/two.yml': '# the same scenario, copied\nid: same\nscript: [hi]\nchecks: [{contains: hi}]\n',
    })
    const result = await runInProcess(['run', 'echo'], { cwd: dir })
    assert.equal(result.code, 2)
    assert.match(result.stderr, /scenarios\/two\.yml:2: scenario id "same" is already used by scenarios\/one\.yml/)
  })

  test('--smok and a misspelt command get a did-you-mean, exit 2', async () => {
    const cwd = await mkdtemp(join(tmpdir(), 'convy-first-hour-'))
    const flag = await runInProcess(['run', 'echo', '--smok'], { cwd })
    assert.equal(flag.code, 2)
    assert.match(flag.stderr, /convy-ci run: unknown option --smok — did you mean --smoke\? \(see convy-ci run --help\)/)
    const command = await runInProcess(['compair', 'a', 'b'], { cwd })
    assert.equal(command.code, 2)
    assert.match(command.stderr, /unknown command "compair" — did you mean "compare"\?/)
  })

  test('the agent is down: each attempt is an agent error, the status says so, and the reason is quoted', async () => {
    const dir = await makeProject({
      'convy.yml': 'agents:\n  bot:\n    url: http://127.0.0.1:1/api/chat\n    body: { message: "{text}" }\n    reply: answer\n',
      'scenarios/hello.yml': 'script: [hi]\nchecks: [{contains: hello}]\n',
    })
    const result = await runInProcess(['run', 'bot', '-k', '2'], { cwd: dir })
    assert.equal(result.code, 1)
    assert.match(result.stdout, /^bot: pass rate 0% · 0 of 2 · 2 agent errors$/m)
    assert.match(result.stdout, /^hello\s+agent error\s+0\/2\s+2$/m)
    assert.match(result.stdout, /2 × agent error: .*ECONNREFUSED/)
    assert.doesNotMatch(result.stdout, /no verdict/)
  })

  test('--smoke on judge-only scenarios: not decided, never "no verdict"', async () => {
    const dir = await makeProject({
      'convy.yml': 'models:\n  user: u\n  judge: j\nagents: {}\n',
      'scenarios/judged.yml': 'user: Ask for help.\njudge:\n  - The agent helped\n',
    })
    const result = await runInProcess(['run', 'echo', '--smoke', '-k', '2'], { cwd: dir })
    assert.equal(result.code, 0, result.stderr)
    assert.match(result.stdout, /^echo: pass rate none · 0 of 2 attempts counted \(below 50%\) · 2 not decided/m)
    assert.match(result.stdout, /^judged\s+not decided\s+–/m)
    assert.match(result.stderr, /judged {2}2 not decided/)
    assert.doesNotMatch(result.stdout + result.stderr, /no verdict/)
    const attempts = await readJsonLines(join(await onlyRun(dir, 'echo'), 'attempts.jsonl'))
    assert.deepEqual(attempts.map((a) => a.verdict), ['not_decided', 'not_decided'])
  })

  test('compare X X warns that a run is compared with itself', async () => {
    const dir = await makeProject({ 'convy.yml': 'agents: {}\n', 'scenarios/hi.yml': 'script: [hi]\nchecks: [{contains: hi}]\n' })
    assert.equal((await runInProcess(['run', 'echo'], { cwd: dir })).code, 0)
    const id = (await onlyRun(dir, 'echo')).split('/').at(-1)!
    const result = await runInProcess(['compare', id, id], { cwd: dir })
    assert.equal(result.code, 0, result.stderr)
    assert.match(result.stderr, /^warning: .* are the same run, echo\/.*: it is within noise of itself by construction/m)
  })
})

function existsAnyRun(stdout: string): boolean {
  return /^run /m.test(stdout)
}
