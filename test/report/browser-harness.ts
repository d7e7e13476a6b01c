import { existsSync } from 'node:fs'
import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { createRequire } from 'node:module'
import { marked } from 'marked'
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

/**
 * The comment as a pull request shows it: GitHub-flavoured markdown in GitHub's comment styles and
 * frame (the docs' screenshots and the tests that look at the comment's first screen).
 */
export async function githubComment(markdown: string): Promise<string> {
  const css = await readFile(createRequire(import.meta.url).resolve('github-markdown-css/github-markdown-light.css'), 'utf8')
  const body = await marked.parse(markdown, { gfm: true })
  return `<!doctype html><meta charset="utf-8"><style>${css}
body{margin:0;padding:20px;background:#fff;font-family:-apple-system,BlinkMacSystemFont,"Segoe UI","Noto Sans",Helvetica,Arial,sans-serif}
.comment{max-width:880px;border:1px solid #d1d9e0;border-radius:6px}
.comment header{background:#f6f8fa;border-bottom:1px solid #d1d9e0;padding:8px 16px;font-size:14px;color:#59636e;border-radius:6px 6px 0 0}
.comment header b{color:#1f2328}.markdown-body{padding:16px;font-size:14px}</style>
<div class="comment"><header><b>github-actions</b> <span>bot</span> commented</header><div class="markdown-body">${body}</div></div>`
}

/**
 * The text of every `selector` element in a run report written twice — dialogues inline, and drawn by
 * the page script from embedded data (a large run) — with every attempt opened; each page checked for
 * injected code that ran, policy violations and script errors on the way.
 */
export async function linesInlineAndDrawn(browser: Browser, dir: string, selector: string, report: (dialogues: 'inline' | 'lazy') => string): Promise<Record<'inline' | 'lazy', string[]>> {
  const lines = { inline: [] as string[], lazy: [] as string[] }
  for (const dialogues of ['inline', 'lazy'] as const) {
    const file = join(dir, `${dialogues}.html`)
    await writeFile(file, report(dialogues))
    const watch = await watchedPage(await browser.newContext())
    await watch.page.goto(pathToFileURL(file).href)
    await watch.page.evaluate("document.querySelectorAll('details').forEach((d) => { d.open = true })")
    await watch.page.locator(selector).first().waitFor()
    lines[dialogues] = await watch.page.locator(selector).allTextContents()
    if ((await watch.pwned()) !== undefined) throw new Error(`the ${dialogues} page ran injected code`)
    const problems = [...(await watch.violations()), ...watch.pageErrors]
    if (problems.length) throw new Error(`the ${dialogues} page: ${problems.join('; ')}`)
    await watch.page.context().close()
  }
  return lines
}
