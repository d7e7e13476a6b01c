import assert from 'node:assert/strict'
import { randomInt } from 'node:crypto'
import { readdir, readFile, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { after, before, test } from 'node:test'
import { judgeByRule, startFakeModelServer, type FakeModelServer } from '../../src/entry/testing/fake-model-server.ts'
import { makeProject } from '../cli/harness.ts'
import { chatBotYml, convyYml } from '../support/convy-yml.ts'
import { startFakeAgentServer, type FakeAgentServer } from '../fakes/agent-server.ts'
import { createRng } from '../fakes/synthetic-run.ts'
import { completeLines, runCliToEnd, runFolders, sleep, startCli } from './cli-process.ts'

/**
 * Kill-and-resume trials: each trial starts a real `convy-ci run` (dist/cli.js) against a fake agent
 * and a fake model gateway, kills it with SIGKILL (before its folder exists, between attempts, after
 * its last attempt, while it ends), resumes it, and checks that the run ends finished with every
 * planned attempt exactly once and every attempt recorded before the kill unchanged.
 *
 * Each trial costs two CLI processes (some 2 CPU seconds), so the moments are chosen first, one of
 * each kind (CHOSEN; a random draw spends most of its trials between attempts), then a few at random
 * from a seed printed with the results: CONVY_RELIABILITY_SEED=<seed> replays them,
 * CONVY_RELIABILITY_TRIALS=<n> sets how many random ones (CONVY_RELIABILITY_TRIALS=60 for a soak).
 */

const SEED = process.env.CONVY_RELIABILITY_SEED ? Number(process.env.CONVY_RELIABILITY_SEED) : randomInt(1, 2 ** 31)
const TRIALS = Number(process.env.CONVY_RELIABILITY_TRIALS ?? 3)

const FILES = {
  'convy.yml': convyYml({ models: { urlVariable: 'MODELS_URL', user: null }, agents: [chatBotYml('bot')] }),
  'scenarios/order.yml': 'script: [hello, where is my order?, "it is 1234"]\nchecks: [{contains: on its way}]\n',
  'scenarios/greet.yml': 'script: [hello]\nchecks: [{contains: help}]\n',
  'scenarios/thanks.yml': 'script: [thanks]\njudge: [The agent answers politely]\n',
}
const K = 4
const TOTAL = 3 * K

/**
 * Kills at a moment chosen, not drawn: once `target` attempts are on disk, `jitterMs` later (a target
 * below 0: `jitterMs` × 8 ms after the start). At once, before the run has a folder; as soon as
 * run.json is written (attempts under way, none recorded); right after the first attempt; halfway;
 * with one left; with every attempt recorded, while the run writes its report and ends.
 */
const CHOSEN: readonly { target: number; jitterMs: number }[] = [
  { target: -1, jitterMs: 0 },
  { target: 0, jitterMs: 0 },
  { target: 1, jitterMs: 0 },
  { target: TOTAL / 2, jitterMs: 3 },
  { target: TOTAL - 1, jitterMs: 0 },
  { target: TOTAL, jitterMs: 0 },
]

let bot: FakeAgentServer
let models: FakeModelServer
before(async () => {
  bot = await startFakeAgentServer({ latencyMs: 8 })
  models = await startFakeModelServer({ latencyMs: 3, judge: judgeByRule(() => true) })
})
after(async () => {
  await bot.close()
  await models.close()
})

type Moment = 'before its folder' | 'between attempts' | 'after its last attempt' | 'after it finished'

interface Attempt {
  scenario: string
  attempt: number
}

function key(a: Attempt): string {
  return `${a.scenario}#${a.attempt}`
}

/** The attempts a reader would count: every line that parses, the last one included. */
async function recorded(run: string): Promise<Map<string, string>> {
  let text = ''
  try {
    text = await readFile(join(run, 'attempts.jsonl'), 'utf8')
  } catch {
    return new Map()
  }
  const found = new Map<string, string>()
  for (const line of text.split('\n')) {
    try {
      const attempt = JSON.parse(line) as Attempt & { verdict?: string }
      if (attempt.verdict) found.set(key(attempt), JSON.stringify(attempt))
    } catch {
      // torn
    }
  }
  return found
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  )
}

/** Kills `convy-ci run` once `target` attempts are on disk (-1: at a time after start) plus `jitterMs`. */
async function killAt(dir: string, target: number, jitterMs: number, env: Record<string, string>) {
  const run = startCli(['run', 'bot', '-k', String(K), '--parallel', '3'], dir, env)
  let ended = false
  void run.ended.then(() => (ended = true))
  if (target < 0) await sleep(jitterMs * 8)
  else {
    const deadline = Date.now() + 60_000
    while (!ended && Date.now() < deadline) {
      const [folder] = await runFolders(dir, 'bot')
      if (folder && (await exists(join(folder, 'run.json'))) && (await completeLines(folder)) >= target) break
      await sleep(2)
    }
    await sleep(jitterMs)
  }
  run.child.kill('SIGKILL')
  return run.ended
}

test(`kill -9 at ${CHOSEN.length} chosen moments and ${TRIALS} random ones, then resume: no attempt lost or played twice`, async (t) => {
  const rng = createRng(SEED)
  t.diagnostic(`seed ${SEED} (replay with CONVY_RELIABILITY_SEED=${SEED})`)
  const moments = new Map<Moment, number>()
  const env = { BOT_URL: bot.url, MODELS_URL: models.url }
  const drawn = Array.from({ length: TRIALS }, () => ({ target: Math.floor(rng() * (TOTAL + 2)) - 1, jitterMs: Math.floor(rng() * 25) }))
  const trials = [...CHOSEN.map((moment) => ({ ...moment, how: 'chosen' })), ...drawn.map((moment) => ({ ...moment, how: `seed ${SEED}` }))]
  for (const [index, { target, jitterMs, how }] of trials.entries()) {
    const label = `trial ${index + 1} (${how}, killed at ${target < 0 ? `${jitterMs * 8} ms` : `${target} attempts + ${jitterMs} ms`})`
    const dir = await makeProject(FILES)
    const killed = await killAt(dir, target, jitterMs, env)

    const folders = await runFolders(dir, 'bot')
    assert.ok(folders.length <= 1, `${label}: ${folders.length} run folders`)
    const run = folders[0]
    if (!run || !(await exists(join(run, 'run.json')))) {
      moments.set('before its folder', (moments.get('before its folder') ?? 0) + 1)
      continue
    }
    const manifest = JSON.parse(await readFile(join(run, 'run.json'), 'utf8')) as { id: string; state: string }
    const before = await recorded(run)
    const moment: Moment = manifest.state === 'finished' ? 'after it finished' : before.size === TOTAL ? 'after its last attempt' : 'between attempts'
    moments.set(moment, (moments.get(moment) ?? 0) + 1)

    const resumed = await runCliToEnd(['resume', manifest.id], dir, env)
    if (moment === 'after it finished') {
      assert.equal(resumed.code, 2, `${label}: ${resumed.stderr}`)
      assert.match(resumed.stderr, /nothing to resume/)
    } else {
      assert.equal(resumed.code, 0, `${label}: killed by ${killed.signal ?? `exit ${killed.code}`}; resume said ${resumed.stderr}`)
    }

    const after = await recorded(run)
    const lines = (await readFile(join(run, 'attempts.jsonl'), 'utf8')).split('\n')
    assert.equal(lines.pop(), '', `${label}: attempts.jsonl does not end with a newline`)
    assert.equal(lines.length, TOTAL, `${label}: ${lines.length} lines for ${TOTAL} attempts`)
    assert.equal(after.size, TOTAL, `${label}: ${after.size} distinct attempts of ${TOTAL}`)
    for (const [k, line] of before) assert.equal(after.get(k), line, `${label}: ${k}, recorded before the kill, changed or vanished`)
    const state = JSON.parse(await readFile(join(run, 'run.json'), 'utf8')) as { state: string }
    assert.equal(state.state, 'finished', label)
    assert.match(await readFile(join(run, 'report.html'), 'utf8'), new RegExp(`${TOTAL} of ${TOTAL} \\(3 scenarios × k ${K}\\)[\\s\\S]*</html>\\s*$`), label)
    assert.deepEqual((await readdir(run)).sort(), ['attempts.jsonl', 'report.html', 'run.json'], `${label}: something was left in the run folder`)
  }
  const summary = [...moments].map(([m, n]) => `${m}: ${n}`).join(', ')
  t.diagnostic(`${trials.length} trials, killed ${summary}; every run ended finished with ${TOTAL} of ${TOTAL} attempts, none lost or played twice`)
})
