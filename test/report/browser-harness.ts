import { existsSync } from 'node:fs'
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core'

/**
 * Headless Chromium for the page tests: Debian's chromium (or CHROMIUM_PATH, e.g. Google Chrome on
 * GitHub's runners) driven by playwright-core. Without one the browser tests skip with this reason on
 * a developer's machine; in CI (CI=true) they run regardless and fail, so a missing browser is seen.
 */
export const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium'
export const NO_CHROMIUM =
  existsSync(CHROMIUM) || process.env.CI === 'true' ? false : `no browser at ${CHROMIUM}: install Debian's chromium (or set CHROMIUM_PATH) to run the page tests`

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'] })
}

/** What a page did that it must not: run injected code, open dialogs, reach the network, break its policy. */
export interface PageWatch {
  page: Page
  dialogs: string[]
  requests: string[]
  consoleErrors: string[]
  pageErrors: string[]
  /** securitypolicyviolation events the page saw. */
  violations(): Promise<string[]>
  pwned(): Promise<unknown>
}

export async function watchedPage(context: BrowserContext): Promise<PageWatch> {
  const page = await context.newPage()
  const watch: PageWatch = {
    page,
    dialogs: [],
    requests: [],
    consoleErrors: [],
    pageErrors: [],
    // Browser-side code is given as text: this project's TypeScript has no DOM types.
    violations: async () => (await page.evaluate('window.__violations || []')) as string[],
    pwned: () => page.evaluate('window.__pwned'),
  }
  page.on('dialog', (dialog) => {
    watch.dialogs.push(dialog.message())
    void dialog.dismiss()
  })
  page.on('request', (request) => watch.requests.push(request.url()))
  page.on('console', (message) => {
    if (message.type() === 'error') watch.consoleErrors.push(message.text())
  })
  page.on('pageerror', (error) => watch.pageErrors.push(error.message))
  // Injected by the browser itself (not by the page), so the page's own policy does not apply to it.
  await page.addInitScript({
    content: `window.__violations = [];
      document.addEventListener('securitypolicyviolation', (e) => window.__violations.push(e.violatedDirective + ' ' + e.blockedURI));`,
  })
  return watch
}
