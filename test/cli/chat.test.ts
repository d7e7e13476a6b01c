import assert from 'node:assert/strict'
import { readFile, writeFile } from 'node:fs/promises'
import { spawn } from 'node:child_process'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { after, before, describe, test } from 'node:test'
import { judgeByRule, startFakeModelServer, type FakeModelServer } from '../../src/entry/testing/fake-model-server.ts'
import { parseYamlFile } from '../../src/base/input/yaml-file.ts'
import { parseScenario } from '../../src/records/scenario/load-scenarios.ts'
import { startFakeAgentServer, type FakeAgentServer } from '../fakes/agent-server.ts'
import { makeProject, runInProcess } from './harness.ts'
import { chatBotYml, convyYml } from '../support/convy-yml.ts'

const CONVY_YML = convyYml({ models: { apiKey: 'test-key' }, agents: [chatBotYml('support_bot', { tokens: true })] })

const LATE_ORDER = `description: A late order, the number given only when asked
user: Your order is late. Give the number 4821 only when asked.
judge:
  - The agent asked for the order number
checks:
  - not_contains: sorry
    fatal: true
tags: [orders]
`

const ROOT = fileURLToPath(new URL('../../', import.meta.url))
const SHOWN_TIME = /(?<=\()(?:\d+ ms|\d+(?:\.\d)? s)/g

describe('convy-ci chat', () => {
  let models: FakeModelServer
  let bot: FakeAgentServer
  let env: Record<string, string>
  before(async () => {
    models = await startFakeModelServer({
      judge: judgeByRule((_claim, dialogue) => dialogue.some((l) => l.role === 'agent' && l.text.toLowerCase().includes('order number'))),
    })
    bot = await startFakeAgentServer()
    env = { CONVY_BASE_URL: models.url, BOT_URL: bot.url }
  })
  after(async () => {
    await models.close()
    await bot.close()
  })

  test('you type the user; the agent answers with its time and tokens; the scenario decides at the end; --save keeps it as a script', async () => {
    const dir = await makeProject({ 'convy.yml': CONVY_YML, 'scenarios/late-order.yml': LATE_ORDER })
    const result = await runInProcess(['chat', 'support_bot', '--scenario', 'late-order', '--save', 'scenarios/late-order-chat'], {
      cwd: dir,
      env,
      input: ['where is my order?', '', 'it is 4821', '/end', 'never sent'],
    })
    assert.equal(result.code, 0, result.stderr)
    const shown = result.stdout.replace(SHOWN_TIME, 'T')
    assert.match(shown, /You play:\n {2}Your order is late\. Give the number 4821 only when asked\./)
    assert.match(shown, /You: Agent \(T · 4 in \/ \d+ out tokens\): I can help with your order\. What is your order number\?/)
    assert.match(shown, /Agent \(T · 3 in \/ \d+ out tokens\): .*Order #4821 is on its way/)
    assert.match(shown, / {2}✓ not_contains sorry — none of the 2 answers contains it\n {2}✓ The agent asked for the order number — fake judge: holds\n→ passed\n/)
    assert.match(shown, /Saved 2 lines as a scenario script: scenarios\/late-order-chat\.yml\n/)
    assert.deepEqual(bot.sessions.size > 0 && [...bot.sessions.values()].at(-1), ['where is my order?', 'it is 4821'])
    assert.equal(models.requests.filter((r) => r.kind === 'judge').length, 1)
    assert.equal(models.requests.filter((r) => r.kind === 'user').length, 0, 'you are the user: no simulated user is asked')

    // The saved file is a scenario that runs as it is, free: your lines and the scenario's checks; the claims only as comments.
    const saved = parseScenario(parseYamlFile('saved.yml', await readFile(join(dir, 'scenarios', 'late-order-chat.yml'), 'utf8')), 'x')
    assert.deepEqual(
      { id: saved.id, script: saved.script, judge: saved.judge, checks: saved.checks, tags: saved.tags, user: saved.user, description: saved.description },
      {
        id: 'late-order-chat',
        script: ['where is my order?', 'it is 4821'],
        judge: [],
        checks: [{ kind: 'not_contains', value: 'sorry', fatal: true }],
        tags: ['orders'],
        user: undefined,
        description: 'A late order, the number given only when asked',
      },
    )
    assert.match(await readFile(join(dir, 'scenarios', 'late-order-chat.yml'), 'utf8'), /^# judge:\n# {3}- "The agent asked for the order number"$/m)
    const judgeCalls = models.requests.filter((r) => r.kind === 'judge').length
    const replayed = await runInProcess(['run', 'support_bot', '--scenarios', 'late-order-chat'], { cwd: dir, env })
    assert.equal(replayed.code, 0, replayed.stderr)
    assert.match(replayed.stdout, /late-order-chat\s+passing\s+1\/1/)
    assert.equal(models.requests.filter((r) => r.kind === 'judge').length, judgeCalls, 'the saved script calls no judge')
  })

  test('/save mid-conversation; an existing file is never overwritten; without a scenario the file says what it still needs', async () => {
    const dir = await makeProject({ 'convy.yml': CONVY_YML, 'scenarios/late-order.yml': LATE_ORDER })
    await writeFile(join(dir, 'taken.yml'), 'keep me\n')
    const judgeCalls = models.requests.filter((r) => r.kind === 'judge').length
    const result = await runInProcess(['chat', 'echo'], { cwd: dir, env, input: ['hello', '/save taken.yml', '/save kept', 'more'] })
    assert.equal(result.code, 0, result.stderr)
    assert.match(result.stdout, /Agent \(\d+ ms\): hello\n/)
    assert.match(result.stdout, /Not saved: taken\.yml exists already; choose another name\n/)
    assert.match(result.stdout, /Saved the line as a scenario script: kept\.yml \(add `judge:` claims or `checks:` before running it\)\n/)
    assert.equal(await readFile(join(dir, 'taken.yml'), 'utf8'), 'keep me\n')
    const kept = await readFile(join(dir, 'kept.yml'), 'utf8')
    assert.match(kept, /^# Saved from `convy-ci chat echo`, \d{4}-\d\d-\d\d: your lines, played as a script\.\n# A scenario needs `judge:` claims or `checks:` — add them before running it\.\nid: kept\nscript:\n {2}- hello\n$/)
    assert.equal(models.requests.filter((r) => r.kind === 'judge').length, judgeCalls, 'no judge without a scenario')
  })

  test('a scenario that does not exist is named, with the likely one, before the agent is called', async () => {
    const dir = await makeProject({ 'convy.yml': CONVY_YML, 'scenarios/late-order.yml': LATE_ORDER })
    const before = bot.requests.length
    const result = await runInProcess(['chat', 'support_bot', '--scenario', 'late-ordr'], { cwd: dir, env, input: ['hi'] })
    assert.equal(result.code, 2)
    assert.match(result.stderr, /--scenario late-ordr: no such scenario — did you mean "late-order"\?/)
    assert.equal(bot.requests.length, before)
  })

  test('an answer that breaks a fatal check ends the chat at once: the rest is not sent, the judge is not asked', async () => {
    const dir = await makeProject({ 'convy.yml': CONVY_YML, 'scenarios/no-questions.yml': 'user: Ask where your order is.\njudge:\n  - Anything\nchecks:\n  - not_contains: order number\n    fatal: true\n' })
    const judgeCalls = models.requests.filter((r) => r.kind === 'judge').length
    const result = await runInProcess(['chat', 'support_bot', '--scenario', 'no-questions'], { cwd: dir, env, input: ['where is my order?', 'it is 4821'] })
    assert.equal(result.code, 0, result.stderr)
    assert.match(result.stdout, /The answer broke a fatal check \(not_contains order number\): the conversation ends here\.\n/)
    assert.match(result.stdout, / {2}✗ not_contains order number — answer 1 contains it: a fatal check, the attempt ended there\n→ failed \(a fatal check ended it\)\n/)
    assert.deepEqual([...bot.sessions.values()].at(-1), ['where is my order?'])
    assert.equal(models.requests.filter((r) => r.kind === 'judge').length, judgeCalls)
  })

  test('the built CLI reads your lines from standard input', async () => {
    // dist/cli.js: run `npm run build` first.
    const dir = await makeProject({ 'convy.yml': 'agents: {}\n' })
    const child = spawn(process.execPath, [join(ROOT, 'dist', 'cli.js'), 'chat', 'echo'], { cwd: dir, stdio: ['pipe', 'pipe', 'pipe'] })
    let stdout = ''
    child.stdout.setEncoding('utf8').on('data', (text: string) => (stdout += text))
    child.stdin.end('hello there\nbye\n')
    const code = await new Promise<number | null>((done) => child.on('exit', done))
    assert.equal(code, 0)
    assert.match(stdout, /^Chatting with echo\. /)
    assert.match(stdout, /You: Agent \(\d+ ms\): hello there\nYou: Agent \(\d+ ms\): bye\nYou: \n$/)
  })

  test('the built CLI lets go of a terminal that stays open: /end exits, and so does Ctrl+C while it waits for you', async () => {
    const dir = await makeProject({ 'convy.yml': 'agents: {}\n' })
    // stdin stays open, as a terminal does: only /end or a signal can end the chat.
    const chat = () => {
      const child = spawn(process.execPath, [join(ROOT, 'dist', 'cli.js'), 'chat', 'echo'], { cwd: dir, stdio: ['pipe', 'pipe', 'pipe'] })
      let stdout = ''
      const answered = new Promise<void>((done) => child.stdout.setEncoding('utf8').on('data', (text: string) => ((stdout += text), stdout.includes('Agent (') && done())))
      const exited = new Promise<number | null>((done, fail) => {
        const timer = setTimeout(() => (child.kill('SIGKILL'), fail(new Error(`still running after 10 s:\n${stdout}`))), 10_000)
        child.on('exit', (code) => (clearTimeout(timer), done(code)))
      })
      return { child, answered, exited, stdout: () => stdout }
    }
    const ended = chat()
    ended.child.stdin.write('hello\n/end\n')
    assert.equal(await ended.exited, 0)

    const interrupted = chat()
    interrupted.child.stdin.write('hello\n')
    await interrupted.answered
    interrupted.child.kill('SIGINT')
    assert.equal(await interrupted.exited, 130)
    assert.match(interrupted.stdout(), /Agent \(\d+ ms\): hello\nYou: \n$/)
  })
})
