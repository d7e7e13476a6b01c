import assert from 'node:assert/strict'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { after, before, describe, test } from 'node:test'
import type { Browser } from 'playwright-core'
import { compareRuns } from '../../../src/verdict/compare-runs.ts'
import { renderComparePage } from '../../../src/views/compare/compare-page.ts'
import { NO_CHROMIUM, watchedPage, type PageWatch } from '../browser-harness.ts'
import { comparedRuns } from '../compare-runs-fixture.ts'
import { hostileAttempts, hostileManifest, PAYLOADS } from '../hostile-run.ts'
import { tallyRecord } from '../../../src/records/tally/run-tally.ts'

const NOW = { now: new Date('2026-03-02T12:00:00Z') }
const OPEN_ALL = "document.querySelectorAll('details').forEach((d) => { d.open = true })"

/** The compare page in Chromium, on the browser the caller launched once for every page test (`../browser.test.ts`). */
export function comparePageInBrowser(chromium: () => Browser): void {
  describe('compare page in a browser', { skip: NO_CHROMIUM }, () => {
    let browser: Browser
    let dir: string
    const urls: Record<'inline' | 'lazy' | 'hostile', string> = { inline: '', lazy: '', hostile: '' }

    before(async () => {
      browser = chromium()
      dir = await mkdtemp(join(tmpdir(), 'convy-compare-browser-'))
      const runs = comparedRuns()
      const comparison = compareRuns(tallyRecord(runs.before), tallyRecord(runs.after), NOW)
      const evilBefore = { manifest: hostileManifest(), attempts: hostileAttempts() }
      const evilAfter = { manifest: { ...hostileManifest(), id: 'evil/2026-01-03T00-00-00_f00d' }, attempts: hostileAttempts() }
      const pages = {
        inline: renderComparePage(comparison, runs, { dialogues: 'inline' }),
        lazy: renderComparePage(comparison, runs, { dialogues: 'lazy' }),
        hostile: renderComparePage(compareRuns(tallyRecord(evilBefore), tallyRecord(evilAfter), NOW), { before: evilBefore, after: evilAfter }, { dialogues: 'lazy' }),
      }
      for (const [name, html] of Object.entries(pages)) {
        await writeFile(join(dir, `${name}.html`), html)
        urls[name as keyof typeof urls] = pathToFileURL(join(dir, `${name}.html`)).href
      }
    })
    after(async () => {
      await rm(dir, { recursive: true, force: true })
    })

    async function open(url: string): Promise<PageWatch> {
      const context = await browser.newContext()
      context.setDefaultTimeout(5_000)
      const watch = await watchedPage(context)
      await watch.page.goto(url)
      return watch
    }

    async function assertClean(watch: PageWatch, url: string): Promise<void> {
      assert.equal(await watch.pwned(), undefined)
      assert.deepEqual(await watch.violations(), [])
      assert.deepEqual([...watch.consoleErrors, ...watch.pageErrors, ...watch.dialogs], [])
      assert.deepEqual([...new Set(watch.requests)], [url.split('#')[0]])
    }

    test('renders the verdict, the tiles and the groups; the group filter works', async () => {
      const watch = await open(urls.inline)
      const { page } = watch
      assert.equal(await page.locator('.verdict .badge').textContent(), 'Inconclusive, evidence missing · Judge changed · Worse, not attributable to the agent')
      assert.ok((await page.locator('.ctile').count()) >= 6)
      await page.click('[data-filter-status="not_compared"]')
      assert.equal(await page.locator('details.scn:visible').count(), 4)
      assert.equal(await page.locator('section[data-group="worse"]').isVisible(), false, 'a group with nothing shown hides')
      await page.click('[data-filter-status="all"]')
      await page.fill('#filter-text', 's1')
      assert.deepEqual(await page.locator('details.scn:visible').evaluateAll((rows) => rows.map((r) => r.id)), ['scenario-S1'])
      await assertClean(watch, urls.inline)
      await page.context().close()
    })

    test('on a phone, every scenario row still shows before, after, change and p, under its name', async () => {
      const context = await browser.newContext({ viewport: { width: 390, height: 844 } })
      const watch = await watchedPage(context)
      await watch.page.goto(urls.inline)
      const cells = await watch.page.locator('details.scn summary.crow').first().evaluate((row) =>
        [...row.children].map((cell) => {
          const box = cell.getBoundingClientRect()
          return { text: (cell.textContent ?? '').trim(), shown: box.width > 0 && box.height > 0, inside: box.left >= 0 && box.right <= row.ownerDocument.documentElement.clientWidth }
        }),
      )
      // The first row is Worse: it also says what moved, as the pull request's comment does.
      assert.equal(cells.length, 7, 'group, name, before, after, change, p, what moved')
      assert.match(cells[6]!.text, /→/)
      for (const cell of cells) assert.ok(cell.shown && cell.inside, `${cell.text} is shown within the screen`)
      const header = await watch.page.locator('.crow.list-head > div').evaluateAll((labels) => labels.map((l) => l.getBoundingClientRect().width > 0))
      assert.ok(header.length >= 6 && header.every(Boolean), 'every column heading is shown')
      await assertClean(watch, urls.inline)
      await context.close()
    })

    test('the address opens a scenario with both runs drawn side by side', async () => {
      const watch = await open(`${urls.lazy}#scenario-S1`)
      const { page } = watch
      await page.waitForSelector('#scenario-S1[open] #scenario-S1-after-a1 .turn', { state: 'attached' })
      assert.equal(await page.locator('#scenario-S1 [id^="scenario-S1-before-a"] .dialogue .turn').count(), 10)
      assert.equal(await page.locator('#scenario-S1 [id^="scenario-S1-after-a"] .dialogue .turn').count(), 10)
      assert.equal(await page.locator('#scenario-S2 .turn').count(), 0, 'closed scenarios stay undrawn')
      await assertClean(watch, urls.lazy)
      await page.context().close()
    })

    test('hostile runs compared: nothing runs, everything shows as text', async () => {
      const watch = await open(urls.hostile)
      const { page } = watch
      await page.evaluate(OPEN_ALL)
      await page.waitForSelector('details.att .turn')
      await page.evaluate(OPEN_ALL)
      await page.waitForTimeout(100)
      await assertClean(watch, urls.hostile)
      const shown = await page.locator('.turn .text').allTextContents()
      for (const payload of PAYLOADS) assert.ok(shown.includes(payload), `not shown as text: ${payload}`)
      await page.context().close()
    })

    test('with JavaScript off: verdict, tiles, groups and every attempt are there', async () => {
      const context = await browser.newContext({ javaScriptEnabled: false })
      context.setDefaultTimeout(5_000)
      const page = await context.newPage()
      await page.goto(urls.inline)
      assert.equal(await page.locator('.verdict .badge').textContent(), 'Inconclusive, evidence missing · Judge changed · Worse, not attributable to the agent')
      assert.deepEqual(await page.locator('section[data-group] h2').allTextContents(), ['Worse 1', 'Better 1', 'Same 2', 'Not compared 4'])
      assert.equal(await page.locator('details.att .badge').count(), 70)
      assert.equal(await page.locator('.filters').isVisible(), false)
      await context.close()
    })
  })
}
