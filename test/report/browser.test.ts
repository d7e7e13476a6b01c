import { after, before } from 'node:test'
import type { Browser } from 'playwright-core'
import { launchChromium, NO_CHROMIUM } from './browser-harness.ts'
import { comparePageInBrowser } from './browser/compare-page.ts'
import { labellingInBrowser } from './browser/labels.ts'
import { runReportInBrowser } from './browser/report-page.ts'
import { severalMessagesInBrowser } from './browser/several-messages.ts'
import { toolLinesInBrowser } from './browser/tool-lines.ts'
import { toolUseCommentInBrowser } from './browser/tool-use-comment.ts'

/**
 * Every test of a page in headless Chromium, in one process around one browser: launching Chromium
 * and loading playwright cost about 3 CPU seconds, more than most of these tests, so they are paid
 * once here rather than once per file. Each test still opens its own context (or page), so no state
 * (storage, colour scheme, JavaScript on or off) passes from one test to another.
 */
let browser: Browser | undefined
before(async () => {
  if (!NO_CHROMIUM) browser = await launchChromium()
})
after(async () => {
  await browser?.close()
})
const chromium = (): Browser => {
  if (!browser) throw new Error('Chromium was not launched')
  return browser
}

runReportInBrowser(chromium)
labellingInBrowser(chromium)
comparePageInBrowser(chromium)
toolLinesInBrowser(chromium)
toolUseCommentInBrowser(chromium)
severalMessagesInBrowser(chromium)
