import assert from 'node:assert/strict'
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, describe, test } from 'node:test'
import { compareRunFolders } from '../../src/verdict/load-runs.ts'
import { readTally } from '../../src/records/tally/read-tally.ts'
import type { RunRecord } from '../../src/records/tally/run-tally.ts'
import { InputError } from '../../src/base/shared/errors.ts'
import { outcomes, run } from './run-builder.ts'

const root = await mkdtemp(join(tmpdir(), 'convy-compare-'))
after(() => rm(root, { recursive: true, force: true }))

async function writeRun(name: string, record: RunRecord, extraLines = ''): Promise<string> {
  const dir = join(root, name)
  await mkdir(dir, { recursive: true })
  await writeFile(join(dir, 'run.json'), JSON.stringify(record.manifest, null, 2))
  await writeFile(join(dir, 'attempts.jsonl'), record.attempts.map((a) => JSON.stringify(a)).join('\n') + '\n' + extraLines)
  return dir
}

describe('comparing run folders', () => {
  test('reads run.json and attempts.jsonl from each folder, a torn last line left out', async () => {
    const beforeDir = await writeRun('before', run({ a: outcomes(5, 5), b: outcomes(5, 5) }))
    const afterDir = await writeRun('after', run({ a: outcomes(0, 5), b: outcomes(5, 5) }), '{"scenario":"a","attem')
    const loaded = await readTally(afterDir)
    assert.equal(loaded.attempts, 10)
    assert.equal(loaded.skippedLines, 1)
    const c = await compareRunFolders(beforeDir, afterDir, { now: new Date('2026-03-02T00:00:00Z') })
    assert.equal(c.verdict, 'worse')
    assert.deepEqual(c.scenarios.worse.map((s) => s.id), ['a'])
  })

  test('a folder that is not a run is an input error', async () => {
    const empty = join(root, 'empty')
    await mkdir(empty, { recursive: true })
    await assert.rejects(compareRunFolders(empty, empty, { now: new Date() }), InputError)
  })
})
