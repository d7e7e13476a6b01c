import assert from 'node:assert/strict'
import { appendFile, mkdtemp, readdir, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, test } from 'node:test'
import { readAllAttempts } from '../../src/records/journal/read-run.ts'
import { writeRunReport } from '../../src/app/pipeline/write-report.ts'
import { writeSyntheticRun } from '../fakes/synthetic-run.ts'

describe('writeRunReport on a run folder', () => {
  let results: string
  before(async () => {
    results = await mkdtemp(join(tmpdir(), 'convy-report-'))
  })
  after(async () => {
    await rm(results, { recursive: true, force: true })
  })

  test('a small run: dialogues written as HTML, every attempt and verdict in the page, nothing left behind', async () => {
    const { dir } = await writeSyntheticRun(results, { seed: 11, scenarios: 6, k: 3 })
    const file = await writeRunReport(dir)
    assert.equal(file, join(dir, 'report.html'))
    assert.deepEqual((await readdir(dir)).sort(), ['attempts.jsonl', 'report.html', 'run.json'])
    const page = await readFile(file, 'utf8')
    const attempts = await readAllAttempts(dir)
    assert.equal(attempts.length, 18)
    assert.equal((page.match(/<details class="att"/g) ?? []).length, 18)
    assert.equal((page.match(/<div class="dialogue">/g) ?? []).length, 18)
    assert.doesNotMatch(page, /data-dialogue=/)
    const labels = { passed: 'Passed', failed: 'Failed', agent_error: 'Agent error', no_verdict: 'No verdict', user_error: 'User error', not_decided: 'Not decided' }
    for (const a of attempts) {
      const id = `scenario-${a.scenario}-a${a.attempt}`
      const at = page.indexOf(`id="${id}"`)
      assert.ok(at > 0, `attempt ${id} missing`)
      assert.ok(page.slice(at, at + 400).includes(`>${labels[a.verdict]}</span>`), `verdict of ${id} missing`)
    }
  })

  test('a large run embeds dialogues as data, one block per attempt, and keeps every verdict in HTML', async () => {
    const { dir } = await writeSyntheticRun(results, { seed: 12, scenarios: 40, k: 8, extraAnswerChars: 2_500 })
    const page = await readFile(await writeRunReport(dir), 'utf8')
    assert.equal((page.match(/<script type="application\/json" id="d-\d+">/g) ?? []).length, 320)
    assert.equal((page.match(/data-dialogue="d-\d+"/g) ?? []).length, 320)
    assert.equal((page.match(/<details class="att"/g) ?? []).length, 320)
    assert.ok(page.endsWith('</body>\n</html>\n'))
    assert.ok(page.indexOf('</main>') < page.indexOf('<script type="application/json"'))
  })

  test('an interrupted run says so first, with the command that resumes it', async () => {
    const { dir } = await writeSyntheticRun(results, { seed: 13, scenarios: 5, k: 3, state: 'interrupted' })
    const page = await readFile(await writeRunReport(dir), 'utf8')
    assert.match(page, /<strong>Interrupted\.<\/strong> The run stopped after 10 of 15 attempts/)
    assert.match(page, /convy-ci resume [0-9a-f]{4}/)
    assert.ok(page.indexOf('Interrupted.') < page.indexOf('class="tiles"'))
  })

  test('a torn last line is left out and counted', async () => {
    const { dir } = await writeSyntheticRun(results, { seed: 14, scenarios: 2, k: 2 })
    await appendFile(join(dir, 'attempts.jsonl'), '{"scenario":"refund-late-order","attem')
    const page = await readFile(await writeRunReport(dir), 'utf8')
    assert.match(page, /1 unreadable line\(s\)/)
    assert.equal((page.match(/<details class="att"/g) ?? []).length, 4)
  })
})
