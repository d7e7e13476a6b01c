import assert from 'node:assert/strict'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { after, before, describe, test } from 'node:test'
import type { Browser, Page } from 'playwright-core'
import { parseLabels } from '../../../src/records/calibration/labels.ts'
import { readAllAttempts } from '../../../src/records/journal/read-run.ts'
import type { Attempt, RunManifest } from '../../../src/records/journal/records.ts'
import { writeRunReport } from '../../../src/app/pipeline/write-report.ts'
import { runInProcess } from '../../cli/harness.ts'
import { writeSyntheticRun } from '../../fakes/synthetic-run.ts'
import { NO_CHROMIUM, watchedPage, type PageWatch } from '../browser-harness.ts'

/**
 * Labels made by the report's own script in Chromium: a person clicks Right or Wrong on claim
 * decisions, downloads labels.jsonl, and the file reads back as the labels clicked — and
 * `convy-ci judge-check` takes it as it is.
 *
 * On the browser the caller launched once for every page test (`../browser.test.ts`).
 */
export function labellingInBrowser(chromium: () => Browser): void {
  describe('labelling decisions in the report', { skip: NO_CHROMIUM }, () => {
    let browser: Browser
    let resultsDir: string
    let inline: { url: string; manifest: RunManifest; attempts: Attempt[] }
    let lazy: { url: string; manifest: RunManifest; attempts: Attempt[] }

    before(async () => {
      browser = chromium()
      resultsDir = await mkdtemp(join(tmpdir(), 'convy-labels-'))
      const made = async (seed: number, agent: string, dialogues: 'inline' | 'lazy') => {
        const run = await writeSyntheticRun(resultsDir, { seed, agent, scenarios: 6, k: 3 })
        const url = pathToFileURL(await writeRunReport(run.dir, { dialogues })).href
        return { url, manifest: run.manifest, attempts: await readAllAttempts(run.dir) }
      }
      inline = await made(11, 'support_bot', 'inline')
      lazy = await made(12, 'big_bot', 'lazy')
    })
    after(async () => {
      await rm(resultsDir, { recursive: true, force: true })
    })

    async function open(url: string, javaScriptEnabled = true): Promise<PageWatch> {
      const context = await browser.newContext({ javaScriptEnabled, acceptDownloads: true })
      context.setDefaultTimeout(5_000)
      const watch = await watchedPage(context)
      await watch.page.goto(url)
      return watch
    }

    /** A claim decision of an attempt with claims, found in the run: [scenario, attempt, claim number, judge's decision]. */
    function decided(attempts: readonly Attempt[], which: (a: Attempt) => boolean): [string, number, number, boolean][] {
      return attempts.filter((a) => a.claims.length > 1 && which(a)).flatMap((a) => a.claims.map((c, i): [string, number, number, boolean] => [a.scenario, a.attempt, i + 1, c.pass]))
    }

    async function click(page: Page, scenario: string, attempt: number, claim: number, pick: 'right' | 'wrong'): Promise<void> {
      const scn = page.locator(`details.scn[data-id="${scenario}"]`)
      if (!(await scn.evaluate((d) => (d as unknown as { open: boolean }).open))) await scn.locator('summary').first().click()
      const att = scn.locator(`details.att[data-attempt="${attempt}"]`)
      if (!(await att.evaluate((d) => (d as unknown as { open: boolean }).open))) await att.locator('summary').first().click()
      await att.locator(`li[data-claim="${claim}"] .label-pick button[data-pick="${pick}"]`).click()
    }

    async function download(page: Page): Promise<string> {
      const [file] = await Promise.all([page.waitForEvent('download'), page.click('#labels-download')])
      assert.equal(file.suggestedFilename(), 'labels.jsonl')
      return readFile((await file.path())!, 'utf8')
    }

    test('Right and Wrong on claim decisions download as labels.jsonl: holds is the judge’s decision, or its opposite', async () => {
      const watch = await open(inline.url)
      const { page } = watch
      assert.match((await page.locator('#labels-count').textContent())!, /No decision labelled yet/)
      assert.ok(await page.locator('#labels-download').isDisabled())
      const picks = decided(inline.attempts, () => true).slice(0, 5)
      assert.equal(picks.length, 5, 'the synthetic run has claim decisions')
      const expected: string[] = []
      for (const [i, [scenario, attempt, claim, judge]] of picks.entries()) {
        const pick = i % 2 === 0 ? 'right' : 'wrong'
        await click(page, scenario, attempt, claim, pick)
        expected.push(JSON.stringify({ run: inline.manifest.id, scenario, attempt, claim, holds: pick === 'right' ? judge : !judge }))
      }
      // Clicking a pressed button again takes the label back; the other button replaces it.
      const [s0, a0, c0] = picks[0]!
      await click(page, s0, a0, c0, 'right')
      assert.match((await page.locator('#labels-count').textContent())!, /^4 decisions labelled$/)
      await click(page, s0, a0, c0, 'right')
      assert.equal(await page.locator(`details.scn[data-id="${s0}"] details.att[data-attempt="${a0}"] li[data-claim="${c0}"] button[aria-pressed="true"]`).getAttribute('data-pick'), 'right')

      const text = await download(page)
      const read = parseLabels('labels.jsonl', text)
      assert.deepEqual(new Set(text.trimEnd().split('\n')), new Set(expected))
      assert.equal(read.labels.length, 5)
      assert.deepEqual(await watch.violations(), [], 'no Content-Security-Policy violation')
      assert.deepEqual(watch.pageErrors, [])
      assert.deepEqual(watch.consoleErrors, [])

      // A reload keeps the labels (localStorage is per origin; a file page keeps it in this context).
      // Chromium hands a localStorage write to the browser's store a moment after the click, and a test
      // reloads sooner than a person would: on a busy machine the first reload can come before the
      // write. A few reloads give it that moment; labels that are never kept still fail.
      let count = ''
      for (let reloads = 0; reloads < 20 && count !== '5 decisions labelled'; reloads++) {
        if (reloads > 0) await new Promise((pause) => setTimeout(pause, 100))
        await page.reload()
        count = (await page.locator('#labels-count').textContent()) ?? ''
      }
      assert.match(count, /^5 decisions labelled$/)
      await page.click('#labels-clear')
      assert.match((await page.locator('#labels-count').textContent())!, /No decision labelled yet/)
      await page.context().close()

      // What the page wrote, judge-check reads: the figures follow from the clicks (3 right, 2 wrong).
      const labelsFile = join(resultsDir, 'labels.jsonl')
      await writeFile(labelsFile, text)
      const checked = await runInProcess(['judge-check', labelsFile, '--results', resultsDir, '--json'], { cwd: resultsDir })
      assert.equal(checked.code, 0, checked.stderr)
      const data = JSON.parse(checked.stdout)
      assert.equal(data.overall.labels, 5)
      assert.equal(data.overall.agreement.value, 3 / 5)
      assert.equal(data.disagreements.length, 2)
    })

    test('in a large report, decisions drawn by the script from data get the same buttons', async () => {
      const watch = await open(lazy.url)
      const { page } = watch
      const passed = decided(lazy.attempts, (a) => a.verdict === 'passed')
      assert.ok(passed.length > 0, 'a passed attempt with claims, whose decisions travel as data')
      const [scenario, attempt, claim] = passed[0]!
      await click(page, scenario, attempt, claim, 'wrong')
      const text = await download(page)
      assert.deepEqual(JSON.parse(text), { run: lazy.manifest.id, scenario, attempt, claim, holds: false })
      assert.deepEqual(watch.pageErrors, [])
      await page.context().close()
    })

    test('without JavaScript every claim decision is on the page and no labelling control shows', async () => {
      const { page } = await open(inline.url, false)
      const claims = inline.attempts.reduce((n, a) => n + a.claims.length, 0)
      assert.equal(await page.locator('li[data-claim]').count(), claims)
      assert.equal(await page.locator('.label-pick').count(), 0)
      assert.ok(!(await page.locator('#labels').isVisible()))
      await page.context().close()
    })
  })
}
