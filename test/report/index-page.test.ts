import assert from 'node:assert/strict'
import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, test } from 'node:test'
import { writeIndex } from '../../src/app/pipeline/write-index.ts'
import { newestFirst, type IndexEntry } from '../../src/views/run/index-page.ts'
import { writeRunReport } from '../../src/app/pipeline/write-report.ts'
import { writeSyntheticRun } from '../fakes/synthetic-run.ts'

function entry(id: string, startedAt: string): IndexEntry {
  return { id, href: `${id}/report.html`, agent: id.split('/')[0]!, state: 'finished', startedAt, passed: 1, decided: 1, counted: 1, rate: 1, attempts: 1, expected: 1, errors: 0 }
}

describe('results/index.html', () => {
  let results: string
  before(async () => {
    results = await mkdtemp(join(tmpdir(), 'convy-index-'))
  })
  after(async () => {
    await rm(results, { recursive: true, force: true })
  })

  test('newest first by start time, whatever the agents or the order found', () => {
    const sorted = newestFirst([
      entry('b/2026-01-01T00-00-00_0001', '2026-01-01T00:00:00Z'),
      entry('a/2026-03-01T00-00-00_0002', '2026-03-01T00:00:00Z'),
      entry('c/2026-02-01T00-00-00_0003', '2026-02-01T00:00:00Z'),
      entry('a/2026-03-01T00-00-00_0004', '2026-03-01T00:00:00Z'),
    ])
    assert.deepEqual(sorted.map((e) => e.id.slice(-4)), ['0004', '0002', '0003', '0001'])
  })

  test('lists every run with a working relative link, its agent, state, pass rate and attempts', async () => {
    const old = await writeSyntheticRun(results, { seed: 1, agent: 'alpha', scenarios: 3, k: 2, startedAt: new Date('2026-05-01T08:00:00Z') })
    const newest = await writeSyntheticRun(results, { seed: 2, agent: 'beta', scenarios: 4, k: 2, startedAt: new Date('2026-05-03T08:00:00Z'), state: 'interrupted' })
    const middle = await writeSyntheticRun(results, { seed: 3, agent: 'alpha', scenarios: 2, k: 1, startedAt: new Date('2026-05-02T08:00:00Z') })
    for (const run of [old, newest, middle]) await writeRunReport(run.dir)
    await mkdir(join(results, 'broken', '2026-05-04T00-00-00_dead'), { recursive: true })
    await writeFile(join(results, 'broken', '2026-05-04T00-00-00_dead', 'run.json'), '{ not json')
    await mkdir(join(results, 'compare'), { recursive: true })
    await writeFile(join(results, 'compare', 'x-vs-y.html'), '')

    const page = await readFile(await writeIndex(results), 'utf8')
    const links = [...page.matchAll(/<td><a href="([^"]+)" title="([^"]+)">[^<]+<\/a><\/td>/g)]
    assert.deepEqual(links.map((l) => l[2]), [newest.manifest.id, middle.manifest.id, old.manifest.id])
    for (const [, href] of links) assert.ok((await stat(join(results, decodeURIComponent(href!)))).isFile(), `${href} does not lead to a report`)
    const newestRow = page.slice(page.indexOf(newest.manifest.id), page.indexOf('</tr>', page.indexOf(newest.manifest.id)))
    assert.match(newestRow, /<td>beta<\/td>/)
    assert.match(newestRow, /Interrupted/)
    assert.match(newestRow, /\d+ of 8/)
    // The same pass rate as each run's own report, read from the attempts here and from the tally there.
    for (const run of [old, newest, middle]) {
      const report = await readFile(join(run.dir, 'report.html'), 'utf8')
      const tile = /<div class="label">Pass rate<\/div><div class="value">(\d+%|none)/.exec(report)![1]!
      const row = page.slice(page.indexOf(run.manifest.id), page.indexOf('</tr>', page.indexOf(run.manifest.id)))
      assert.match(row, tile === 'none' ? /<td class="num">–<\/td>/ : new RegExp(`<td class="num">${tile} · `), `${run.manifest.id}: the report says ${tile}`)
    }
    assert.match(page, /<h2>Unreadable runs<\/h2>.*broken\/2026-05-04T00-00-00_dead/s)
    assert.match(page, /<a href="compare\/x-vs-y.html">x-vs-y<\/a>/)
  })

  test('an agent name cannot turn its link into a script address', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'convy-index-evil-'))
    try {
      await writeSyntheticRun(dir, { agent: 'javascript:alert(1)', scenarios: 1, k: 1 })
      const page = await readFile(await writeIndex(dir), 'utf8')
      assert.match(page, /<a href="javascript%3Aalert\(1\)\//)
      assert.doesNotMatch(page, /href="javascript:/)
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })
})
