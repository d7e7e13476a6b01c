// Regenerates the README's screenshots, docs/report-{light,dark}.png, docs/compare-{light,dark}.png and
// docs/pr-comment.png (the pull request's comment for a Worse change, rendered as GitHub renders
// markdown: GFM with GitHub's own stylesheet), from synthetic runs (test/fakes/synthetic-run.ts) in
// headless Chromium:
//
//   node --import tsx bench/screenshots.ts
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { chromium } from 'playwright-core'
import { compareRuns } from '../src/verdict/compare-runs.ts'
import { comparisonMarkdown } from '../src/views/markdown/compare-markdown.ts'
import { renderComparePage } from '../src/views/compare/compare-page.ts'
import { anchorFor } from '../src/views/page/html.ts'
import { writeRunReport } from '../src/app/pipeline/write-report.ts'
import { syntheticRun, writeSyntheticRun } from '../test/fakes/synthetic-run.ts'
import { githubComment } from '../test/report/browser-harness.ts'
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
