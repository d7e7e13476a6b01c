// Regenerates docs/report-trend.png: report.html's scenario list with the default branch's trend
// (docs/trend.md), from synthetic runs (test/fakes/synthetic-run.ts): ten runs of main summarised into
// history.json, then a run in which one steady scenario broke, in headless Chromium.
//
//   node --import tsx bench/trend-screenshot.ts
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { chromium } from 'playwright-core'
import { summarizeRun } from '../src/records/tally/run-summary.ts'
import { tallyRecord } from '../src/records/tally/run-tally.ts'
import { HISTORY_FILE, writeHistory } from '../src/records/tally/trend.ts'
import { writeRunReport } from '../src/app/pipeline/write-report.ts'
import { syntheticRun, writeSyntheticRun } from '../test/fakes/synthetic-run.ts'

const MIX = [0.98, 0.98, 0.85, 0.98, 0.55, 0.98, 0.85, 0.98]
const work = await mkdtemp(join(tmpdir(), 'convy-trend-shot-'))
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'] })
try {
  const main = Array.from({ length: 10 }, (_, i) =>
    summarizeRun(tallyRecord(syntheticRun({ seed: 100 + i, scenarios: 8, k: 5, startedAt: new Date(Date.UTC(2026, 10, 10 + i, 9)), passProbability: (s) => MIX[s]! }))),
  )
  const entries = main.reverse().map((summary, i) => ({ workflowRun: 9000 - i, summary }))
  await writeHistory(join(work, 'support_bot', HISTORY_FILE), { branch: 'main', entries }, new Date('2026-11-21T09:00:00Z'))
  const { dir } = await writeSyntheticRun(work, { seed: 7, scenarios: 8, k: 5, startedAt: new Date('2026-11-21T09:30:00Z'), passProbability: (s) => (s === 1 ? 0.02 : MIX[s]!) })
  const report = pathToFileURL(await writeRunReport(dir)).href
  for (const scheme of ['light', 'dark'] as const) {
    const page = await browser.newPage({ viewport: { width: 1100, height: 1200 }, colorScheme: scheme, deviceScaleFactor: 2 })
    await page.goto(report)
    const list = page.locator('.list').first()
    await list.screenshot({ path: `docs/report-trend${scheme === 'dark' ? '-dark' : ''}.png` })
    await page.close()
  }
} finally {
  await browser.close()
  await rm(work, { recursive: true, force: true })
}
