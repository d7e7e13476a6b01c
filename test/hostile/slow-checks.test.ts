import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import { after, before, describe, test } from 'node:test'
import { readAllAttempts } from '../../src/records/journal/read-run.ts'
import { makeProject, onlyRun, runInProcess } from '../cli/harness.ts'
import { startHostileAgent, type HostileAgent } from '../fakes/hostile-agent.ts'
import { srcCliArgs } from '../support/src-cli.ts'

// A `regex:` check whose repeats multiply, on a 1 MiB answer: before issue 23 it held the event loop
// for tens of seconds, Ctrl+C did nothing meanwhile, and healthy attempts beside it timed out.

const CONVY_YML = `agents:
  bot:
    url: \${BOT_URL}/chat
    body: { message: "{text}" }
    reply: answer
`
// Under the load-time limit (some 960 steps), yet about 20 s on 1 MiB of "x": the budget (10 s) decides.
const SLOW = 'x{2,400}y{2,80}'
const ONE_MIB = `big:${2 ** 20 - 64}`
// Healthy attempts whose answers come while the slow check runs, 1.5 s each against a turn timeout of
// 8 s: far more than load can add, far less than a check holding the event loop would (10 to 20 s).
const healthy = 'script: ["late:1500", "late:1500", "late:1500", "late:1500"]\nchecks:\n  - contains: on time\n'
const files = {
  'convy.yml': CONVY_YML,
  'scenarios/slow.yml': `script: ["${ONE_MIB}"]\nchecks:\n  - regex: "${SLOW}"\n`,
  'scenarios/a.yml': healthy,
  'scenarios/b.yml': healthy,
  'scenarios/c.yml': healthy,
}

describe('a check that would take longer than its budget', () => {
  let agent: HostileAgent
  before(async () => {
    agent = await startHostileAgent()
  })
  after(() => agent.close())

  test('fails that check saying so, and the attempts beside it are unaffected', async (t) => {
    const dir = await makeProject(files)
    const started = performance.now()
    const result = await runInProcess(['run', 'bot', '--turn-timeout', '8'], { cwd: dir, env: { BOT_URL: agent.url } })
    t.diagnostic(`the run took ${((performance.now() - started) / 1000).toFixed(1)} s`)
    const attempts = new Map((await readAllAttempts(await onlyRun(dir, 'bot'))).map((a) => [a.scenario, a]))
    for (const id of ['a', 'b', 'c']) {
      assert.equal(attempts.get(id)!.verdict, 'passed', `${id}: ${attempts.get(id)!.error ?? ''}`)
      assert.equal(attempts.get(id)!.turns.filter((t) => t.role === 'agent').length, 4)
    }
    const slow = attempts.get('slow')!
    assert.equal(slow.verdict, 'failed', result.stderr)
    assert.equal(slow.error, null, 'not an agent error')
    assert.match(slow.checks[0]!.detail, /^the check's pattern took too long \(10\.0 s on the answer; the limit is 10 s\)$/)
    // Every attempt finished (a failed check is a verdict, not an error): exit 0.
    assert.equal(result.code, 0)
  })

  test('a pattern whose repeats multiply past the limit is refused before anything runs, with file and line', async () => {
    const dir = await makeProject({ ...files, 'scenarios/slow.yml': `script: ["${ONE_MIB}"]\nchecks:\n  - contains: x\n  - regex: "x{2,1000}y{2,1000}z{2,1000}"\n` })
    const result = await runInProcess(['run', 'bot'], { cwd: dir, env: { BOT_URL: agent.url } })
    assert.equal(result.code, 2)
    assert.match(result.stderr, /scenarios\/slow\.yml:4: checks\.1\.regex is not a pattern convy-ci can run: it compiles to \d+ steps, past the limit of 1000/)
  })

  test('Ctrl+C while the check runs ends the run at once, with exit 130', async (t) => {
    const dir = await makeProject({ 'convy.yml': CONVY_YML, 'scenarios/slow.yml': files['scenarios/slow.yml'] })
    const child = spawn(process.execPath, [...srcCliArgs(), 'run', 'bot'], {
      cwd: dir,
      env: { ...process.env, BOT_URL: agent.url, CI: 'true', GITHUB_ACTIONS: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let stderr = ''
    child.stderr.on('data', (d: Buffer) => (stderr += d))
    const exited = new Promise<number | null>((done) => child.on('exit', (code) => done(code)))
    // The answer has been sent once the agent served it; the check starts right after.
    const served = agent.served('big')
    await served
    await new Promise((resolve) => setTimeout(resolve, 1000))
    const interrupted = performance.now()
    child.kill('SIGINT')
    assert.equal(await exited, 130, stderr)
    t.diagnostic(`exit 130 ${((performance.now() - interrupted) / 1000).toFixed(2)} s after SIGINT`)
    assert.match(stderr, /interrupted/)
    // Not a time: the interruption cut the check off, so the attempt was dropped unfinished. A check
    // that ran on to its end (the whole match, or its 10 s budget) would have given it a verdict first.
    assert.deepEqual(await readAllAttempts(await onlyRun(dir, 'bot')), [])
  })
})
