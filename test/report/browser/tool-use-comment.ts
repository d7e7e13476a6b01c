import assert from 'node:assert/strict'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { after, before, describe, test } from 'node:test'
import type { Browser } from 'playwright-core'
import { comparisonMarkdown } from '../../../src/views/markdown/compare-markdown.ts'
import { githubComment, NO_CHROMIUM } from '../browser-harness.ts'
import { comparisonOf, runs } from '../tool-use-runs.ts'

/**
 * The comment of ../tool-use-comment.test.ts as a pull request shows it, on the browser the caller
 * launched once for every page test (`../browser.test.ts`).
 *
 * CONVY_SCREENSHOTS=docs writes the rendered comment to docs/pr-comment-tools.png (the first 900 px: a
 * reviewer's first screen).
 */
export function toolUseCommentInBrowser(chromium: () => Browser): void {
  describe('a PR that dropped one tool call: rendered as GitHub renders the comment', { skip: NO_CHROMIUM }, () => {
    let browser: Browser
    let dir: string
    before(async () => {
      browser = chromium()
      dir = await mkdtemp(join(tmpdir(), 'convy-tool-comment-'))
    })
    after(async () => {
      await rm(dir, { recursive: true, force: true })
    })

    test('the dropped call is on the first screen', async () => {
      const markdown = comparisonMarkdown(comparisonOf(runs()), { reportUrl: 'https://github.com/acme/support-bot/actions/runs/12345/artifacts/67890' })
      const file = join(dir, 'comment.html')
      await writeFile(file, await githubComment(markdown))
      const viewport = { width: 940, height: 900 }
      const page = await browser.newPage({ viewport, colorScheme: 'light', deviceScaleFactor: 1 })
      await page.goto(pathToFileURL(file).href)
      // Said under "Worth a look", and again in the folded table of scenarios within noise.
      const said = page.getByText('no longer called: 10/10 → 0/10 attempts', { exact: false }).first()
      assert.ok(await said.isVisible())
      const box = await said.boundingBox()
      assert.ok(box && box.y + box.height <= viewport.height, `at ${box?.y} px, below the first ${viewport.height} px`)
      // And the slower scenario, on the same first screen.
      const slower = page.getByText(/cancel-subscription: answers [\d.]+ × slower/).first()
      assert.ok(await slower.isVisible())
      const slowerBox = await slower.boundingBox()
      assert.ok(slowerBox && slowerBox.y + slowerBox.height <= viewport.height, `the slower scenario at ${slowerBox?.y} px, below the first ${viewport.height} px`)
      await page.screenshot({ path: join(process.env.CONVY_SCREENSHOTS ?? dir, 'pr-comment-tools.png') })
      await page.close()
    })
  })
}
