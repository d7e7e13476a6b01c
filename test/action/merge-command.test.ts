import assert from 'node:assert/strict'
import { readFile, readdir, stat, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, test } from 'node:test'
import type { Attempt } from '../../src/records/journal/records.ts'
import { readAllAttempts, readManifest } from '../../src/records/journal/read-run.ts'
import { makeProject, runInProcess } from '../cli/harness.ts'

// `convy-ci merge`, which the action's merge mode uses too: shards of one run become that run.

const BOT = `export const agent = {
  conversation() {
    let turns = 0
    return { answer: (message) => ({ text: \`\${++turns}: \${message.toUpperCase()}\`, usage: { input: message.length, output: 3 } }) }
  },
}
`
const scenario = (i: number) => `script: [hello ${i}, "and ${i}"]\nchecks:\n  - contains: "${i % 3 === 0 ? 'nothing like it' : `HELLO ${i}`}"\n`

async function project(): Promise<string> {
  const files: Record<string, string> = { 'convy.yml': 'agents:\n  bot: agents/bot.mjs\n', 'agents/bot.mjs': BOT }
  for (let i = 1; i <= 7; i++) files[`scenarios/s${i}.yml`] = scenario(i)
  return makeProject(files)
}

/** Runs and returns the new run's id. */
async function run(dir: string, ...args: string[]): Promise<string> {
  const before = new Set(await runIds(dir))
  const result = await runInProcess(['run', 'bot', '-k', '3', ...args], { cwd: dir })
  assert.equal(result.code, 0, result.stderr)
  const added = (await runIds(dir)).filter((id) => !before.has(id))
  assert.equal(added.length, 1)
  return added[0]!
}

async function runIds(dir: string): Promise<string[]> {
  return (await readdir(join(dir, 'results', 'bot')).catch(() => [])).filter((name) => name !== 'index.html').map((name) => `bot/${name}`)
}

const folder = (dir: string, id: string) => join(dir, 'results', ...id.split('/'))
const comparable = (attempts: Attempt[]) =>
  attempts.map((a) => ({ ...a, startedAt: '', seconds: 0, turns: a.turns.map((t) => ({ ...t, seconds: 0 })) })).sort((x, y) => x.scenario.localeCompare(y.scenario) || x.attempt - y.attempt)

describe('convy-ci merge', () => {
  test('three shards merge into exactly the unsharded run, in its order, with a report', async () => {
    const dir = await project()
    const whole = await run(dir)
    const shards = [await run(dir, '--shard', '1/3'), await run(dir, '--shard', '3/3'), await run(dir, '--shard', '2/3')]
    const sizes = await Promise.all(shards.map(async (id) => (await readAllAttempts(folder(dir, id))).length))
    assert.deepEqual(sizes, [7, 7, 7])

    const result = await runInProcess(['merge', ...shards.map((id) => id.slice(-4))], { cwd: dir })
    assert.equal(result.code, 0, result.stderr)
    const merged = /^merged 3 shards into run (\S+)$/m.exec(result.stdout)?.[1]
    assert.ok(merged, result.stdout)
    const mergedAttempts = await readAllAttempts(folder(dir, merged))
    assert.deepEqual(comparable(mergedAttempts), comparable(await readAllAttempts(folder(dir, whole))))
    assert.deepEqual(
      mergedAttempts.map((a) => `${a.scenario}#${a.attempt}`),
      [...mergedAttempts].sort((x, y) => x.scenario.localeCompare(y.scenario) || x.attempt - y.attempt).map((a) => `${a.scenario}#${a.attempt}`),
      'written in the plan’s order',
    )
    const manifest = await readManifest(folder(dir, merged))
    const wholeManifest = await readManifest(folder(dir, whole))
    assert.equal(manifest.settings.shard, null)
    assert.equal(manifest.state, 'finished')
    assert.deepEqual({ ...manifest.settings }, { ...wholeManifest.settings })
    assert.deepEqual(manifest.agent, wholeManifest.agent)
    assert.ok((await stat(join(folder(dir, merged), 'report.html'))).size > 1000)
  })

  test('refuses, saying why: a missing shard, a shard twice, another run’s shard, a changed agent, an unfinished shard, a run that is no shard', async () => {
    const dir = await project()
    const [one, two] = [await run(dir, '--shard', '1/2'), await run(dir, '--shard', '2/2')]
    const otherK = await runInProcess(['run', 'bot', '-k', '2', '--shard', '2/2'], { cwd: dir })
    assert.equal(otherK.code, 0)
    const twoOtherK = (await runIds(dir)).find((id) => ![one, two].includes(id))!
    const whole = await run(dir)
    await writeFile(join(dir, 'agents/bot.mjs'), BOT.replace('toUpperCase', 'toLowerCase'))
    const twoChanged = await run(dir, '--shard', '2/2')

    const refused = async (ids: string[], pattern: RegExp) => {
      const result = await runInProcess(['merge', ...ids.map((id) => folder(dir, id))], { cwd: dir })
      assert.equal(result.code, 2, result.stdout)
      assert.match(result.stderr, pattern)
    }
    await refused([one], /shard 2 of 2 is missing; merge all 2 shards/)
    await refused([one, one, two], /shard 1 of 2 is given twice/)
    await refused([one, twoOtherK], /are not shards of one run: they differ in the settings/)
    await refused([one, twoChanged], /are not shards of one run: they differ in the agent's configuration or module/)
    await refused([one, whole], /is not a shard \(it was run without --shard\)/)

    const runJson = join(folder(dir, two), 'run.json')
    await writeFile(runJson, (await readFile(runJson, 'utf8')).replace('"state": "finished"', '"state": "interrupted"'))
    await refused([one, two], /shard 2 of 2 \(bot\/\S+\) is interrupted; resume it first/)
  })
})
