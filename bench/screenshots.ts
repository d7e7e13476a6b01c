// Regenerates the README's screenshots, docs/report-{light,dark}.png, docs/compare-{light,dark}.png and
// docs/pr-comment.png (the pull request's comment for a Worse change, rendered as GitHub renders
// markdown: GFM with GitHub's own stylesheet), from synthetic runs (test/fakes/synthetic-run.ts) in
// headless Chromium:
//
//   node --import tsx bench/screenshots.ts
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { marked } from 'marked'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { chromium } from 'playwright-core'
import { compareRuns } from '../src/verdict/compare-runs.ts'
import { comparisonMarkdown } from '../src/views/markdown/compare-markdown.ts'
import { renderComparePage } from '../src/views/compare/compare-page.ts'
import { anchorFor } from '../src/views/page/html.ts'
import { writeRunReport } from '../src/views/run/run-report.ts'
import { syntheticRun, writeSyntheticRun } from '../test/fakes/synthetic-run.ts'
import { tallyRecord } from '../src/records/tally/run-tally.ts'

const MIX = [0.98, 0.98, 0.85, 0.98, 0.55, 0.98, 0.85, 0.98, 0.85, 0.55]
const work = await mkdtemp(join(tmpdir(), 'convy-screenshots-'))
await mkdir('docs', { recursive: true })
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'] })

async function shoot(url: string, name: string, height: number): Promise<void> {
  for (const scheme of ['light', 'dark'] as const) {
    const page = await browser.newPage({ viewport: { width: 1280, height }, colorScheme: scheme })
    await page.goto(url)
    await page.evaluate('window.scrollTo(0, 0)')
    await page.screenshot({ path: `docs/${name}-${scheme}.png` })
    await page.close()
  }
}

try {
  const { dir } = await writeSyntheticRun(work, { seed: 7, scenarios: 10, k: 3, agentErrorRate: 0.05 })
  const report = pathToFileURL(await writeRunReport(dir)).href
  await shoot(`${report}#${anchorFor('scenario', 'plan-upgrade-proration')}`, 'report', 2000)

  const before = syntheticRun({ seed: 1, scenarios: 10, k: 5, startedAt: new Date('2026-11-20T09:30:00Z') })
  const after = syntheticRun({ seed: 2, scenarios: 10, k: 5, startedAt: new Date('2026-11-21T09:30:00Z'), passProbability: (i) => (i === 1 ? 0.05 : MIX[i % 10]!) })
  const comparison = compareRuns(tallyRecord(before), tallyRecord(after), { now: new Date('2026-11-21T10:00:00Z') })
  const file = join(work, 'compare.html')
  await writeFile(file, renderComparePage(comparison, { before, after }))
  await shoot(`${pathToFileURL(file).href}#${anchorFor('scenario', 'clarify-backup')}`, 'compare', 2000)

  const markdown = comparisonMarkdown(comparison, { reportUrl: 'https://github.com/acme/support-bot/actions/runs/12345/artifacts/67890' })
  const comment = join(work, 'comment.html')
  await writeFile(comment, await githubComment(markdown))
  const page = await browser.newPage({ viewport: { width: 940, height: 600 }, colorScheme: 'light', deviceScaleFactor: 1 })
  await page.goto(pathToFileURL(comment).href)
  await page.screenshot({ path: 'docs/pr-comment.png', fullPage: true })
  await page.close()
} finally {
  await browser.close()
  await rm(work, { recursive: true, force: true })
}

/** The comment as a pull request shows it: GitHub-flavoured markdown in GitHub's comment styles and frame. */
async function githubComment(markdown: string): Promise<string> {
  const css = await readFile(createRequire(import.meta.url).resolve('github-markdown-css/github-markdown-light.css'), 'utf8')
  const body = await marked.parse(markdown, { gfm: true })
  return `<!doctype html><meta charset="utf-8"><style>${css}
body{margin:0;padding:20px;background:#fff;font-family:-apple-system,BlinkMacSystemFont,"Segoe UI","Noto Sans",Helvetica,Arial,sans-serif}
.comment{max-width:880px;border:1px solid #d1d9e0;border-radius:6px}
.comment header{background:#f6f8fa;border-bottom:1px solid #d1d9e0;padding:8px 16px;font-size:14px;color:#59636e;border-radius:6px 6px 0 0}
.comment header b{color:#1f2328}.markdown-body{padding:16px;font-size:14px}</style>
<div class="comment"><header><b>github-actions</b> <span>bot</span> commented</header><div class="markdown-body">${body}</div></div>`
}
