import assert from 'node:assert/strict'
import { stat } from 'node:fs/promises'
import { join } from 'node:path'
import { after, before, describe, test } from 'node:test'
import { readAllAttempts } from '../../src/records/journal/read-run.ts'
import type { Attempt } from '../../src/records/journal/records.ts'
import { encodedForms } from '../../src/base/shared/secrets.ts'
import { allText, makeProject, onlyRun, runInProcess } from '../cli/harness.ts'
import { startHostileAgent, type HostileAgent } from '../fakes/hostile-agent.ts'

// Fault injection at the agent, through the real CLI, the real HTTP client and a real server.
const TOKEN = 'tok-9f8e7d6c5b4a3210'

const CONVY_YML = `agents:
  bot:
    url: \${BOT_URL}/chat?key=\${BOT_TOKEN}
    headers: { Authorization: "Bearer \${BOT_TOKEN}" }
    body: { message: "{text}" }
    reply: answer
`

const scenario = (line: string, check: string) => `script:\n  - "${line}"\nchecks:\n  - ${check}\n`

describe('an agent that misbehaves', () => {
  let agent: HostileAgent
  let run: string
  let attempts: Map<string, Attempt>
  let result: { code: number; stdout: string; stderr: string }
  before(async () => {
    agent = await startHostileAgent()
    const dir = await makeProject({
      'convy.yml': CONVY_YML,
      'scenarios/echo.yml': scenario('echo', 'contains: POST'),
      'scenarios/big.yml': scenario(`big:${20 * 2 ** 20}`, 'contains: xxx'),
      // A POSIX class only RE2 reads, then (a+)+$: the first holding shows RE2 decides the checks.
      'scenarios/backtrack.yml': `${scenario('aaa:33', 'regex: "^[[:alpha:]]{34}$"')}  - regex: "(a+)+$"\n`,
    })
    result = await runInProcess(['run', 'bot'], { cwd: dir, env: { BOT_URL: agent.url, BOT_TOKEN: TOKEN } })
    run = await onlyRun(dir, 'bot')
    attempts = new Map((await readAllAttempts(run)).map((a) => [a.scenario, a]))
  })
  after(() => agent.close())

  test('a token the agent echoes is written nowhere, in any form', async () => {
    const echoed = attempts.get('echo')!.turns.find((t) => t.role === 'agent')!.text
    assert.match(echoed, /authorization/i, 'the echo came back')
    assert.match(echoed, /\*\*\*/)
    const everything = `${await allText(run)}\n${result.stdout}\n${result.stderr}`
    for (const form of [TOKEN, ...encodedForms(TOKEN), Buffer.from(`Bearer ${TOKEN}`).toString('base64')]) {
      assert.ok(!everything.includes(form), `found ${form}`)
    }
    // The report itself was made, from masked attempts.
    assert.ok((await stat(join(run, 'report.html'))).size > 0)
  })

  test('a 20 MB answer is kept to 1 MiB, cut and marked; the turn still counts', async () => {
    const big = attempts.get('big')!
    const text = big.turns.find((t) => t.role === 'agent')!.text
    assert.equal(big.verdict, 'passed')
    assert.ok(text.length < 1.1 * 2 ** 20, `kept ${text.length}`)
    assert.match(text, /\[cut by convy-ci: the answer was 20,971,520 bytes; the first 1,048,576 are kept \(max_reply_kb\)\]$/)
    assert.ok((await stat(join(run, 'attempts.jsonl'))).size < 3 * 2 ** 20)
  })

  test('a turn timeout names the turn once', async () => {
    const dir = await makeProject({ 'convy.yml': CONVY_YML, 'scenarios/hang.yml': scenario('hang', 'contains: anything') })
    await runInProcess(['run', 'bot', '--turn-timeout', '1'], { cwd: dir, env: { BOT_URL: agent.url, BOT_TOKEN: TOKEN } })
    const [hang] = await readAllAttempts(await onlyRun(dir, 'bot'))
    assert.ok(hang)
    assert.equal(hang.verdict, 'agent_error')
    assert.equal(hang.error, 'turn 1: no answer within 1 s (--turn-timeout)')
  })

  test('a catastrophic pattern on 33 a’s is decided by RE2, which does not backtrack', () => {
    // Not timed: the engine is shown by what it reads (test/runner/checks.test.ts has the same at the
    // unit), and RE2's time is linear in the answer whatever the pattern.
    const backtrack = attempts.get('backtrack')!
    assert.equal(backtrack.verdict, 'failed')
    assert.deepEqual(
      backtrack.checks.map((c) => [c.pass, c.detail]),
      [
        [true, 'answer 1 matches it'],
        [false, 'none of the 1 answer matches it'],
      ],
    )
  })

  test('a 70 MiB answer is read as it arrives, kept to 1 MiB, cut and marked: the turn passes, memory stays low', async () => {
    const dir = await makeProject({ 'convy.yml': CONVY_YML, 'scenarios/huge.yml': scenario(`huge:${70 * 2 ** 20}`, 'contains: y') })
    const before = process.memoryUsage().rss
    const huge = await runInProcess(['run', 'bot'], { cwd: dir, env: { BOT_URL: agent.url, BOT_TOKEN: TOKEN } })
    const [attempt] = await readAllAttempts(await onlyRun(dir, 'bot'))
    assert.equal(huge.code, 0, huge.stderr)
    assert.equal(attempt!.verdict, 'passed')
    const text = attempt!.turns.find((t) => t.role === 'agent')!.text
    assert.match(text, /^y{1000}/)
    assert.match(text, /\n\[cut by convy-ci: the answer was 73,400,320 bytes; the first 1,048,576 are kept \(max_reply_kb\)\]$/)
    // The 70 MiB never sit in memory: neither as bytes, nor as text, nor parsed.
    assert.ok(process.memoryUsage().rss - before < 200 * 2 ** 20, `RSS grew by ${((process.memoryUsage().rss - before) / 2 ** 20).toFixed(0)} MiB`)
    assert.ok((await stat(join(await onlyRun(dir, 'bot'), 'attempts.jsonl'))).size < 3 * 2 ** 20)
  })
})
