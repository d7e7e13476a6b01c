import assert from 'node:assert/strict'
import { mkdtemp, readdir, readFile, utimes, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { test } from 'node:test'
import { STALE_MS, withIndexLock } from '../../src/app/pipeline/write-index.ts'
import { writeIndex } from '../../src/app/pipeline/write-index.ts'
import { writeSyntheticRun } from '../fakes/synthetic-run.ts'

test('runs that end together each write the index: every one of them is in the last index written', async () => {
  const results = await mkdtemp(join(tmpdir(), 'convy-index-lock-'))
  // Twelve runs end at once; each writes its folder, then the index, as a run does.
  const ids = await Promise.all(
    Array.from({ length: 12 }, async (_, i) => {
      const run = await writeSyntheticRun(results, { seed: i + 1, agent: `agent${i % 3}`, scenarios: 2, k: 1, startedAt: new Date(Date.UTC(2026, 4, 1, i)) })
      await writeIndex(results)
      return run.manifest.id
    }),
  )
  const index = await readFile(join(results, 'index.html'), 'utf8')
  for (const id of ids) assert.ok(index.includes(id.split('/')[1]!), `${id} is in the index`)
  assert.deepEqual((await readdir(results)).filter((name) => name.startsWith('index.html')), ['index.html'], 'no lock or temporary is left')
})

test('writers take turns; a lock a killed writer left is taken over once stale', async () => {
  const target = join(await mkdtemp(join(tmpdir(), 'convy-index-lock-')), 'index.html')
  const order: string[] = []
  const writer = (name: string) => async () => {
    order.push(`${name} in`)
    await new Promise((resolve) => setTimeout(resolve, 30))
    order.push(`${name} out`)
  }
  await Promise.all([withIndexLock(target, writer('a')), withIndexLock(target, writer('b')), withIndexLock(target, writer('c'))])
  for (let i = 0; i < order.length; i += 2) assert.equal(order[i]!.replace(' in', ''), order[i + 1]!.replace(' out', ''), order.join(', '))

  await writeFile(`${target}.lock`, '')
  const old = new Date(Date.now() - STALE_MS - 1000)
  await utimes(`${target}.lock`, old, old)
  assert.equal(await withIndexLock(target, async () => 'written'), 'written')
})
