import assert from 'node:assert/strict'
import { cp, mkdir, readdir, readFile, writeFile } from 'node:fs/promises'
import { hostname } from 'node:os'
import { join } from 'node:path'
import { after, before, test } from 'node:test'
import { writeIndex } from '../../src/app/pipeline/write-index.ts'
import { startFakeAgentServer, type FakeAgentServer } from '../fakes/agent-server.ts'
import { makeProject, onlyRun, readJsonLines, runInProcess } from './harness.ts'

/**
 * The run folder with more than one writer, or a writer that stopped at the wrong moment: what a
 * killed or doubled `convy-ci` must not do to a run (issue 12).
 */

const CONVY_YML = `agents:
  bot:
    url: \${BOT_URL}/api/chat
    body: { session_id: "{session}", message: "{text}" }
    reply: data.answer
`
const SCENARIOS = {
  'scenarios/a.yml': 'script: [hello, where is my order?]\nchecks: [{contains: order number}]\n',
  'scenarios/b.yml': 'script: [hi there, "my order 1234"]\nchecks: [{contains: on its way}]\n',
  'scenarios/c.yml': 'script: [thanks]\nchecks: [{contains: welcome}]\n',
}
const TOTAL = 21

let bot: FakeAgentServer
/** The project of a finished run of 21 attempts, played once; each test works on a copy of it. */
let played: string
before(async () => {
  bot = await startFakeAgentServer({ latencyMs: 15 })
  played = await makeProject({ 'convy.yml': CONVY_YML, ...SCENARIOS })
  const made = await runInProcess(['run', 'bot', '-k', '7', '--parallel', '3'], { cwd: played, env: { BOT_URL: bot.url } })
  assert.equal(made.code, 0, made.stderr)
})
after(async () => bot.close())

/**
 * A finished run of 21 attempts in a project of its own (a copy of the one played, as it was when
 * that run ended), for a test to make into what a process killed at some moment leaves.
 */
async function recordedRun(): Promise<{ dir: string; run: string; id: string; lines: string[] }> {
  const dir = await makeProject({})
  await cp(played, dir, { recursive: true })
  const run = await onlyRun(dir, 'bot')
  const lines = (await readFile(join(run, 'attempts.jsonl'), 'utf8')).trimEnd().split('\n')
  assert.equal(lines.length, TOTAL)
  const id = JSON.parse(await readFile(join(run, 'run.json'), 'utf8')).id as string
  return { dir, run, id, lines }
}

async function setState(run: string, state: string): Promise<void> {
  const manifest = JSON.parse(await readFile(join(run, 'run.json'), 'utf8'))
  await writeFile(join(run, 'run.json'), JSON.stringify({ ...manifest, state, finishedAt: null }))
}

async function keys(run: string): Promise<string[]> {
  return (await readJsonLines(join(run, 'attempts.jsonl'))).map((a) => `${a.scenario}#${a.attempt}`)
}

test('two resumes of one run at once: one plays the missing attempts, the other refuses with exit 2 naming it', async () => {
  const { dir, run, id, lines } = await recordedRun()
  await writeFile(join(run, 'attempts.jsonl'), `${lines.slice(0, 5).join('\n')}\n`)
  await setState(run, 'interrupted')

  const [one, two] = await Promise.all([
    runInProcess(['resume', id.slice(-4)], { cwd: dir, env: { BOT_URL: bot.url } }),
    runInProcess(['resume', id], { cwd: dir, env: { BOT_URL: bot.url } }),
  ])
  const codes = [one.code, two.code].sort()
  assert.deepEqual(codes, [0, 2], `${one.stderr}\n${two.stderr}`)
  const refused = one.code === 2 ? one : two
  const since = /since (\S+);/.exec(refused.stderr)?.[1]
  assert.ok(since && !Number.isNaN(Date.parse(since)), refused.stderr)
  assert.match(refused.stderr, new RegExp(`run ${id.replace('/', '\\/')} is being written by pid ${process.pid} on ${hostname()} \\(convy-ci resume (${id.slice(-4)}|${id.replace('/', '\\/')})\\) since `))

  const recorded = await keys(run)
  assert.equal(recorded.length, TOTAL, 'attempts were played twice or lost')
  assert.equal(new Set(recorded).size, TOTAL)
  assert.equal(JSON.parse(await readFile(join(run, 'run.json'), 'utf8')).state, 'finished')
  assert.ok(!(await readdir(run)).includes('run.lock'), 'the lock was left behind')
  assert.match(await readFile(join(run, 'report.html'), 'utf8'), /21 of 21 \(3 scenarios × k 7\)/)
})

test('resume finishes a run killed after its last attempt, before it was marked finished', async () => {
  for (const state of ['running', 'interrupted']) {
    const { dir, run, id } = await recordedRun()
    await setState(run, state)
    await writeFile(join(run, 'report.html'), '') // none yet, as after the kill
    const finished = await runInProcess(['resume', id], { cwd: dir, env: { BOT_URL: bot.url } })
    assert.equal(finished.code, 0, finished.stderr)
    assert.match(finished.stderr, new RegExp(`finishing ${id.replace('/', '\\/')}: all 21 attempts are recorded; it was ${state}`))
    assert.match(finished.stdout, /bot: pass rate/)
    const manifest = JSON.parse(await readFile(join(run, 'run.json'), 'utf8'))
    assert.equal(manifest.state, 'finished')
    assert.ok(manifest.finishedAt)
    assert.equal((await keys(run)).length, TOTAL)
    assert.match(await readFile(join(run, 'report.html'), 'utf8'), /Finished/)
    assert.match(await readFile(join(dir, 'results', 'index.html'), 'utf8'), /state-finished/)

    const again = await runInProcess(['resume', id], { cwd: dir, env: { BOT_URL: bot.url } })
    assert.equal(again.code, 2)
    assert.match(again.stderr, /has all 21 attempts recorded; nothing to resume/)
  }
})

test('resume keeps a whole last attempt written without its newline, and cuts only a torn one', async () => {
  const { dir, run, id, lines } = await recordedRun()
  // Killed between an attempt's line and its newline: the line is whole.
  await writeFile(join(run, 'attempts.jsonl'), `${lines.slice(0, 8).join('\n')}\n${lines[8]}`)
  await setState(run, 'interrupted')
  const resumed = await runInProcess(['resume', id], { cwd: dir, env: { BOT_URL: bot.url } })
  assert.equal(resumed.code, 0, resumed.stderr)
  assert.match(resumed.stderr, /12 of 21 attempts to play/)
  const kept = await keys(run)
  assert.equal(kept.length, TOTAL, 'the whole last line was lost')
  assert.equal(new Set(kept).size, TOTAL)
  assert.equal((await readFile(join(run, 'attempts.jsonl'), 'utf8')).split('\n')[8], lines[8])

  // A torn line is not an attempt: it is cut, and that attempt is played again.
  const torn = await recordedRun()
  await writeFile(join(torn.run, 'attempts.jsonl'), `${torn.lines.slice(0, 8).join('\n')}\n${torn.lines[8]!.slice(0, 40)}`)
  await setState(torn.run, 'interrupted')
  const again = await runInProcess(['resume', torn.id], { cwd: torn.dir, env: { BOT_URL: bot.url } })
  assert.equal(again.code, 0, again.stderr)
  assert.match(again.stderr, /13 of 21 attempts to play/)
  assert.equal(new Set(await keys(torn.run)).size, TOTAL)
  assert.equal((await keys(torn.run)).length, TOTAL)
})

test('report skips a run another process is writing and names that process; a stale lock does not stop it', async () => {
  const { dir, run, id } = await recordedRun()
  await writeFile(join(run, 'run.lock'), JSON.stringify({ pid: process.pid, host: hostname(), command: 'convy-ci resume x', since: '2026-12-01T03:00:00.000Z', nonce: 'n' }))
  await writeFile(join(run, 'report.html'), 'old page')
  const skipped = await runInProcess(['report'], { cwd: dir })
  assert.equal(skipped.code, 0, skipped.stderr)
  assert.match(skipped.stderr, new RegExp(`${id.replace('/', '\\/')}: skipped \\(run .* is being written by pid ${process.pid} on ${hostname()} \\(convy-ci resume x\\) since 2026-12-01T03:00:00.000Z`))
  assert.match(skipped.stdout, /0 reports written, 1 skipped/)
  assert.equal(await readFile(join(run, 'report.html'), 'utf8'), 'old page')

  // Left by a process that is gone (pid 2^22 + 1 is above Linux's pid limit), with its half-written page.
  await writeFile(join(run, 'run.lock'), JSON.stringify({ pid: 4_194_305, host: hostname(), command: 'convy-ci run bot', since: '2026-12-01T02:00:00.000Z', nonce: 'n' }))
  await writeFile(join(run, 'report.html.3f2a9c1b0d4e.tmp'), '<!doctype html><p>half')
  const rebuilt = await runInProcess(['report'], { cwd: dir })
  assert.equal(rebuilt.code, 0, rebuilt.stderr)
  assert.match(rebuilt.stdout, /1 report written/)
  assert.deepEqual((await readdir(run)).sort(), ['attempts.jsonl', 'report.html', 'run.json'])
})

test('concurrent writers of the index each put a whole page in place', async () => {
  const { dir } = await recordedRun()
  const results = join(dir, 'results')
  await mkdir(results, { recursive: true })
  const written = await Promise.allSettled(Array.from({ length: 8 }, () => writeIndex(results)))
  assert.deepEqual(written.filter((w) => w.status === 'rejected').map((w) => String((w as PromiseRejectedResult).reason)), [])
  assert.match(await readFile(join(results, 'index.html'), 'utf8'), /<\/html>\s*$/)
  assert.deepEqual((await readdir(results)).filter((name) => name.endsWith('.tmp')), [])
})
