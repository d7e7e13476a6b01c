import assert from 'node:assert/strict'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { after, before, describe, test } from 'node:test'
import type { Browser } from 'playwright-core'
import { writeRunReport } from '../../../src/app/pipeline/write-report.ts'
import { renderRunReport } from '../../../src/views/run/run-report.ts'
import { syntheticRun, writeSyntheticRun } from '../../fakes/synthetic-run.ts'
import { NO_CHROMIUM, watchedPage, type PageWatch } from '../browser-harness.ts'
import { HUGE_ANSWER, hostileAttempts, hostileManifest, PAYLOADS } from '../hostile-run.ts'

const OPEN_ALL = "document.querySelectorAll('details').forEach((d) => { d.open = true })"

/** The run report in Chromium, on the browser the caller launched once for every page test (`../browser.test.ts`). */
export function runReportInBrowser(chromium: () => Browser): void {
  describe('run report in a browser', { skip: NO_CHROMIUM }, () => {
    let browser: Browser
    let dir: string
    let small: string
    let large: string
    let hostileInline: string
    let hostileLazy: string

    before(async () => {
      browser = chromium()
      dir = await mkdtemp(join(tmpdir(), 'convy-browser-'))
      small = pathToFileURL(await writeRunReport((await writeSyntheticRun(dir, { seed: 5, scenarios: 10, k: 3 })).dir)).href
      large = pathToFileURL(await writeRunReport((await writeSyntheticRun(dir, { seed: 6, agent: 'big', scenarios: 12, k: 4 })).dir, { dialogues: 'lazy' })).href
      const attempts = hostileAttempts({ huge: true })
      for (const [name, dialogues] of [['inline', 'inline'], ['lazy', 'lazy']] as const) {
        await writeFile(join(dir, `hostile-${name}.html`), renderRunReport({ manifest: hostileManifest(), attempts, dialogues }))
      }
      hostileInline = pathToFileURL(join(dir, 'hostile-inline.html')).href
      hostileLazy = pathToFileURL(join(dir, 'hostile-lazy.html')).href
    })
    after(async () => {
      await rm(dir, { recursive: true, force: true })
    })

    async function open(url: string, options: { colorScheme?: 'light' | 'dark' } = {}): Promise<PageWatch> {
      const context = await browser.newContext({ colorScheme: options.colorScheme ?? 'light' })
      context.setDefaultTimeout(5_000)
      const watch = await watchedPage(context)
      await watch.page.goto(url)
      return watch
    }

    async function assertClean(watch: PageWatch, url: string): Promise<void> {
      assert.deepEqual(await watch.violations(), [], 'Content-Security-Policy violations')
      assert.deepEqual(watch.consoleErrors, [])
      assert.deepEqual(watch.pageErrors, [])
      assert.deepEqual(watch.dialogs, [])
      assert.deepEqual([...new Set(watch.requests)], [url.split('#')[0]], 'the page reached for something besides itself')
    }

    test('renders its summary and scenarios, with no policy violation and no request', async () => {
      const watch = await open(small)
      const { page } = watch
      assert.equal(await page.locator('.tile').first().locator('.label').textContent(), 'Pass rate')
      assert.equal(await page.locator('details.scn').count(), 10)
      assert.ok(await page.locator('.filters').isVisible(), 'the filter shows once the script runs')
      await assertClean(watch, small)
      await page.context().close()
    })

    test('the filter narrows scenarios by text and by status', async () => {
      const { page } = await open(small)
      await page.fill('#filter-text', 'refund')
      assert.deepEqual(await page.locator('details.scn:visible').evaluateAll((rows) => rows.map((r) => r.id)), ['scenario-refund-late-order'])
      assert.equal(await page.locator('details.scn:visible').count(), 1)
      assert.match((await page.locator('#filter-count').textContent())!, /^1 of 10 shown$/)
      await page.fill('#filter-text', '')
      const status = (await page.locator('[data-filter-status]:not([data-filter-status="all"])').first().getAttribute('data-filter-status'))!
      const matching = await page.locator(`details.scn[data-status="${status}"]`).count()
      assert.ok(matching > 0 && matching < 10)
      await page.click(`[data-filter-status="${status}"]`)
      assert.equal(await page.locator('details.scn:visible').count(), matching)
      assert.equal(await page.locator(`details.scn:visible:not([data-status="${status}"])`).count(), 0)
      await page.click('[data-filter-status="all"]')
      assert.equal(await page.locator('details.scn:visible').count(), 10)
      await page.context().close()
    })

    test('the filter takes globs, matched against whole names: refund-* but not late-*', async () => {
      const { page } = await open(small)
      const shown = () => page.locator('details.scn:visible').evaluateAll((rows) => rows.map((r) => r.id))
      await page.fill('#filter-text', 'refund-*')
      assert.deepEqual(await shown(), ['scenario-refund-late-order'])
      await page.fill('#filter-text', '*-de')
      assert.deepEqual(await shown(), ['scenario-sendungsverfolgung-de'])
      await page.fill('#filter-text', 'late-*')
      assert.deepEqual(await shown(), [], 'a glob matches a whole name, not the middle of one')
      await page.fill('#filter-text', 'd-late-')
      assert.deepEqual(await shown(), ['scenario-refund-late-order'], 'plain text still matches anywhere')
      await page.fill('#filter-text', 'billin?')
      assert.ok((await shown()).includes('scenario-refund-late-order'), 'a tag is a name too')
      await page.context().close()
    })

    test('the theme switch applies, is remembered, and System follows the machine', async () => {
      const { page } = await open(small, { colorScheme: 'dark' })
      const background = () => page.evaluate('getComputedStyle(document.body).backgroundColor')
      const systemDark = await background()
      await page.click('[data-theme-choice="light"]')
      assert.equal(await page.getAttribute('html', 'data-theme'), 'light')
      const light = await background()
      assert.notEqual(light, systemDark)
      await page.reload()
      assert.equal(await page.getAttribute('html', 'data-theme'), 'light', 'the choice survives a reload')
      assert.equal(await page.getAttribute('[data-theme-choice="light"]', 'aria-pressed'), 'true')
      await page.click('[data-theme-choice="system"]')
      assert.equal(await page.getAttribute('html', 'data-theme'), null)
      assert.equal(await background(), systemDark)
      await page.click('[data-theme-choice="dark"]')
      assert.equal(await background(), systemDark)
      await page.context().close()
    })

    test('the address keeps the open scenario, and opens it again', async () => {
      const { page } = await open(small)
      const row = page.locator('details.scn').nth(2)
      const id = (await row.getAttribute('id'))!
      await row.locator(':scope > summary').click()
      await page.waitForFunction(`location.hash === '#${id}'`)
      await page.reload()
      assert.equal(await page.locator(`#${id}`).getAttribute('open'), '')
      await row.locator(':scope > summary').click()
      await page.waitForFunction("location.hash === ''")
      await page.goto(`${small}#${id}`)
      assert.equal(await page.locator(`#${id}`).getAttribute('open'), '')
      await page.context().close()
    })

    test('a large run draws a dialogue from its data when the scenario opens', async () => {
      const watch = await open(large)
      const { page } = watch
      const row = page.locator('details.scn[data-status="passing"]').first()
      assert.equal(await row.locator('.turn').count(), 0)
      await row.locator(':scope > summary').click()
      await page.waitForSelector('details.scn[open] .turn', { state: 'attached' })
      const run = syntheticRun({ seed: 6, agent: 'big', scenarios: 12, k: 4 })
      const name = (await row.getAttribute('data-search'))!.split(' ')[0]!
      const first = run.attempts.find((a) => a.scenario === name && a.attempt === 1)!
      const texts = await row.locator(`[id$="-a1"] .turn .text`).allTextContents()
      assert.deepEqual(texts, first.turns.map((t) => t.text))
      const passed = run.attempts.filter((a) => a.scenario === name && a.verdict === 'passed')
      assert.ok(passed.some((a) => a.claims.length > 0))
      const drawn = await row.locator('details.att .decisions .reason').allTextContents()
      for (const a of passed) for (const c of a.claims) assert.ok(drawn.includes(c.reason), `reason not drawn: ${c.reason}`)
      await assertClean(watch, large)
      await page.context().close()
    })

    for (const [mode, url] of [['inline', () => hostileInline], ['lazy', () => hostileLazy]] as const) {
      test(`a reply full of XSS payloads runs nothing and shows as text (${mode})`, async () => {
        const watch = await open(url())
        const { page } = watch
        await page.evaluate(OPEN_ALL)
        await page.waitForSelector('details.att .turn')
        await page.evaluate(OPEN_ALL)
        await page.waitForTimeout(100)
        assert.equal(await watch.pwned(), undefined)
        await assertClean(watch, url())
        const shown = await page.locator('details.att').first().locator('.turn .text').allTextContents()
        for (const payload of PAYLOADS) assert.ok(shown.some((t) => t.includes(payload)), `not shown as text: ${payload}`)
        assert.ok(await page.getByText('The page keeps the first 20,000 of 5,242,880 characters').isVisible())
        const overflow = (await page.evaluate('document.documentElement.scrollWidth - document.documentElement.clientWidth')) as number
        assert.ok(overflow <= 0, `the page scrolls sideways by ${overflow}px`)
        assert.ok(!shown.some((t) => t.length > 20_100), 'more than the cap reached the page')
        assert.ok(HUGE_ANSWER.length > 5_000_000)
        await page.context().close()
      })
    }

    test('with JavaScript off: the summary, every verdict and the dialogues are there', async () => {
      const context = await browser.newContext({ javaScriptEnabled: false })
      context.setDefaultTimeout(5_000)
      const page = await context.newPage()
      await page.goto(small)
      assert.equal(await page.locator('.tile').count(), 6)
      assert.equal(await page.locator('details.att').count(), 30)
      assert.equal(await page.locator('details.att .badge').count(), 30)
      assert.ok((await page.locator('.turn').count()) > 100)
      assert.equal(await page.locator('.filters').isVisible(), false, 'controls that need the script stay hidden')
      assert.equal(await page.locator('.theme').isVisible(), false)
      await page.locator('details.scn').first().locator(':scope > summary').click()
      const opened = page.locator('details.scn').first()
      assert.ok(await opened.locator('.detail').isVisible(), 'a scenario opens without the script')
      assert.ok(await opened.locator('details.att[open] .turn').first().isVisible(), 'its failed attempts show their dialogue')
      await context.close()
    })
  })
}
