import assert from 'node:assert/strict'
import { readdir, readFile, writeFile } from 'node:fs/promises'
import { hostname } from 'node:os'
import { join } from 'node:path'
import { after, before, test } from 'node:test'
import { makeProject } from '../cli/harness.ts'
import { startFakeAgentServer, type FakeAgentServer } from '../fakes/agent-server.ts'
import { writeSyntheticRun } from '../fakes/synthetic-run.ts'
import { runCliToEnd, runFolders, sleep, startCli } from './cli-process.ts'
import { chatBotYml, convyYml } from '../support/convy-yml.ts'

/**
 * Real processes meeting over one run folder (dist/cli.js): two resumes at once, and a process
 * killed while it writes the run's report.
 */

const CONVY_YML = convyYml({ models: null, agents: [chatBotYml('bot')] })

let bot: FakeAgentServer
before(async () => {
  bot = await startFakeAgentServer({ latencyMs: 5 })
})
after(async () => bot.close())

async function waitFor(what: string, check: () => Promise<boolean>, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await sleep(1)
  }
}

test('two resume processes at once: one refuses with exit 2 naming the other; no attempt is played twice', async () => {
  const dir = await makeProject({
    'convy.yml': CONVY_YML,
    'scenarios/a.yml': 'script: [hello, where is my order?]\nchecks: [{contains: order number}]\n',
    'scenarios/b.yml': 'script: [hi there, "my order 1234"]\nchecks: [{contains: on its way}]\n',
    'scenarios/c.yml': 'script: [thanks]\nchecks: [{contains: welcome}]\n',
  })
  const env = { BOT_URL: bot.url }
  const made = await runCliToEnd(['run', 'bot', '-k', '7', '--parallel', '3'], dir, env)
  assert.equal(made.code, 0, made.stderr)
  const [run] = await runFolders(dir, 'bot')
  const lines = (await readFile(join(run!, 'attempts.jsonl'), 'utf8')).trimEnd().split('\n')
  const manifest = JSON.parse(await readFile(join(run!, 'run.json'), 'utf8'))
  // Interrupted after 5 of 21 attempts.
  await writeFile(join(run!, 'attempts.jsonl'), `${lines.slice(0, 5).join('\n')}\n`)
  await writeFile(join(run!, 'run.json'), JSON.stringify({ ...manifest, state: 'interrupted', finishedAt: null }))

  bot.latencyMs = 250 // whichever resume takes the run plays for a few seconds
  try {
    const both = [startCli(['resume', manifest.id], dir, env), startCli(['resume', manifest.id.slice(-4)], dir, env)]
    const ends = await Promise.all(both.map((p) => p.ended))
    assert.deepEqual(ends.map((e) => e.code).sort(), [0, 2], ends.map((e) => e.stderr).join('\n'))
    const refused = ends.findIndex((e) => e.code === 2)
    const holder = both[1 - refused]!
    const command = refused === 0 ? manifest.id.slice(-4) : manifest.id
    assert.match(
      ends[refused]!.stderr,
      new RegExp(`^error: run ${manifest.id.replace('/', '\\/')} is being written by pid ${holder.child.pid} on ${hostname()} \\(convy-ci resume ${command.replace('/', '\\/')}\\) since \\d{4}-\\d\\d-\\d\\dT[\\d:.]+Z; wait for it to end`),
    )
  } finally {
    bot.latencyMs = 5
  }
  const after = (await readFile(join(run!, 'attempts.jsonl'), 'utf8')).trimEnd().split('\n')
  const keys = after.map((line) => JSON.parse(line)).map((a: { scenario: string; attempt: number }) => `${a.scenario}#${a.attempt}`)
  assert.equal(keys.length, 21, `${keys.length} lines for 21 attempts`)
  assert.equal(new Set(keys).size, 21)
  assert.equal(JSON.parse(await readFile(join(run!, 'run.json'), 'utf8')).state, 'finished')
})

test('killed while writing the report: no page and a stray temporary, until the next resume finishes the run and clears it', async () => {
  const dir = await makeProject({ 'convy.yml': CONVY_YML, 'scenarios/a.yml': 'script: [hello]\n' })
  // Every attempt recorded, not yet marked finished, large enough that its report takes a while.
  const { dir: run, manifest } = await writeSyntheticRun(join(dir, 'results'), { agent: 'bot', scenarios: 40, k: 25, extraAnswerChars: 1500 })
  await writeFile(join(run, 'run.json'), JSON.stringify({ ...manifest, state: 'running', finishedAt: null }))
  const env = { BOT_URL: bot.url }

  const finishing = startCli(['resume', manifest.id], dir, env)
  let ended = false
  void finishing.ended.then(() => (ended = true))
  await waitFor('the report to be written', async () => ended || (await readdir(run)).some((name) => name.startsWith('report.html.') && name.endsWith('.tmp')))
  finishing.child.kill('SIGKILL')
  const killed = await finishing.ended
  assert.equal(killed.signal, 'SIGKILL', `the resume ended before it was killed: ${killed.stderr}`)

  const left = await readdir(run)
  assert.ok(!left.includes('report.html'), 'a page appeared although its writing was killed')
  assert.ok(left.some((name) => name.endsWith('.tmp')), `no temporary was left: ${left.join(', ')}`)
  assert.ok(left.includes('run.lock'), 'the killed process held the run')
  assert.equal(JSON.parse(await readFile(join(run, 'run.json'), 'utf8')).state, 'running', 'marked finished before its report was written')

  const finished = await runCliToEnd(['resume', manifest.id], dir, env)
  assert.equal(finished.code === 0 || finished.code === 1, true, finished.stderr) // the synthetic run has agent errors: exit 1
  assert.match(finished.stderr, /finishing .*: all 1000 attempts are recorded; it was running/)
  assert.deepEqual((await readdir(run)).sort(), ['attempts.jsonl', 'report.html', 'run.json'])
  assert.match(await readFile(join(run, 'report.html'), 'utf8'), /1,000 of 1,000[\s\S]*<\/html>\s*$/)
  assert.equal(JSON.parse(await readFile(join(run, 'run.json'), 'utf8')).state, 'finished')
})
