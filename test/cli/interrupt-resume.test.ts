import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { after, before, test } from 'node:test'
import { startFakeAgentServer, type FakeAgentServer } from '../fakes/agent-server.ts'
import { makeProject, onlyRun, readJsonLines, runInProcess } from './harness.ts'
import { chatBotYml, convyYml } from '../support/convy-yml.ts'
import { srcCliArgs } from '../support/src-cli.ts'


const CONVY_YML = convyYml({ models: { urlVariable: null }, agents: [chatBotYml('bot')] })

let bot: FakeAgentServer
before(async () => {
  bot = await startFakeAgentServer({ latencyMs: 60 })
})
after(async () => bot.close())

async function attemptsRecorded(file: string): Promise<number> {
  try {
    return (await readFile(file, 'utf8')).split('\n').filter(Boolean).length
  } catch {
    return 0
  }
}

test('SIGINT keeps finished attempts and says how to resume; resume plays exactly the missing ones', async () => {
  const dir = await makeProject({
    'convy.yml': CONVY_YML,
    'scenarios/a.yml': 'script: [hello, where is my order?]\nchecks: [{contains: order number}]\n',
    'scenarios/b.yml': 'script: [hi there, "my order 1234"]\nchecks: [{contains: on its way}]\n',
  })
  const child = spawn(process.execPath, [...srcCliArgs(), 'run', 'bot', '-k', '15', '--parallel', '2'], {
    cwd: dir,
    env: { ...process.env, BOT_URL: bot.url, CI: 'true', GITHUB_ACTIONS: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (d: Buffer) => (stdout += d))
  child.stderr.on('data', (d: Buffer) => (stderr += d))
  const exited = new Promise<number | null>((done) => child.on('exit', (code) => done(code)))

  // Interrupt once a few attempts are on disk and most are still to play. The deadline is a guard
  // against a run that never starts, not a measure: on a busy machine tsx alone may take many seconds.
  const deadline = Date.now() + 120_000
  let runFolder: string | undefined
  while (Date.now() < deadline) {
    try {
      runFolder = await onlyRun(dir, 'bot')
      if ((await attemptsRecorded(join(runFolder, 'attempts.jsonl'))) >= 4) break
    } catch {
      // the run folder is not there yet
    }
    await new Promise((r) => setTimeout(r, 20))
  }
  assert.ok(runFolder, 'the run never started')
  child.kill('SIGINT')
  const code = await exited
  assert.equal(code, 130, stderr)

  const manifest = JSON.parse(await readFile(join(runFolder, 'run.json'), 'utf8'))
  assert.equal(manifest.state, 'interrupted')
  const recorded = await readJsonLines(join(runFolder, 'attempts.jsonl'))
  assert.ok(recorded.length >= 4 && recorded.length < 30, `recorded ${recorded.length}`)
  assert.match(stderr, new RegExp(`interrupted: ${recorded.length} of 30 attempts recorded`))
  assert.match(stderr, new RegExp(`resume with: convy-ci resume ${manifest.id.replace('/', '\\/')}`))
  assert.match(stdout, /bot: pass rate/)

  // A changed agent configuration: refused, nothing played.
  const original = await readFile(join(dir, 'convy.yml'), 'utf8')
  await writeFile(join(dir, 'convy.yml'), original.replace('reply: data.answer', 'reply: data.text'))
  const refused = await runInProcess(['resume', manifest.id.slice(-4)], { cwd: dir, env: { BOT_URL: bot.url } })
  assert.equal(refused.code, 2)
  assert.match(refused.stderr, /cannot resume .*the configuration of agent "bot" changed/)

  // A changed model name: refused too.
  await writeFile(join(dir, 'convy.yml'), original.replace('judge: judge-model', 'judge: other-judge'))
  const refusedModels = await runInProcess(['resume', manifest.id], { cwd: dir, env: { BOT_URL: bot.url } })
  assert.equal(refusedModels.code, 2)
  assert.match(refusedModels.stderr, /the models section of convy\.yml changed/)
  assert.equal((await readJsonLines(join(runFolder, 'attempts.jsonl'))).length, recorded.length)

  await writeFile(join(dir, 'convy.yml'), original)
  const resumed = await runInProcess(['resume', manifest.id.slice(-4)], { cwd: dir, env: { BOT_URL: bot.url } })
  assert.equal(resumed.code, 0, resumed.stderr)
  assert.match(resumed.stderr, new RegExp(`resuming ${manifest.id.replace('/', '\\/')}: ${30 - recorded.length} of 30 attempts to play`))
  const all = await readJsonLines(join(runFolder, 'attempts.jsonl'))
  const keys = all.map((a) => `${a.scenario}#${a.attempt}`)
  assert.equal(all.length, 30)
  assert.equal(new Set(keys).size, 30, 'an attempt was played twice')
  for (const earlier of recorded) assert.ok(keys.includes(`${earlier.scenario}#${earlier.attempt}`))
  assert.equal(JSON.parse(await readFile(join(runFolder, 'run.json'), 'utf8')).state, 'finished')

  const again = await runInProcess(['resume', manifest.id], { cwd: dir, env: { BOT_URL: bot.url } })
  assert.equal(again.code, 2)
  assert.match(again.stderr, /has all 30 attempts recorded; nothing to resume/)
})
