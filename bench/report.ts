// Measures report.html for a large run: render time, file size and peak memory of the process that
// writes it, then how long Chromium takes to open the page and to open a scenario in it.
//
//   node --import tsx bench/report.ts [--scenarios 500] [--k 20] [--turns 4] [--answer-chars 400] [--keep]
//
// The run folder is generated (test/fakes/synthetic-run.ts) into a temporary directory; the report
// is written in a child process so its peak RSS is the report's alone, not the generator's.
import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdtemp, rm, stat } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { parseArgs } from 'node:util'
import { writeRunReport } from '../src/report/run-report.ts'
import { writeSyntheticRun } from '../test/fakes/synthetic-run.ts'

const { values } = parseArgs({
  options: {
    scenarios: { type: 'string', default: '500' },
    k: { type: 'string', default: '20' },
    turns: { type: 'string', default: '4' },
    'answer-chars': { type: 'string', default: '400' },
    render: { type: 'string' },
    keep: { type: 'boolean', default: false },
  },
})

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`

async function renderInThisProcess(runDir: string): Promise<void> {
  const before = process.memoryUsage().rss
  const started = performance.now()
  await writeRunReport(runDir)
  const ms = performance.now() - started
  // maxRSS is in kilobytes.
  console.log(JSON.stringify({ ms, rssBefore: before, peakRss: process.resourceUsage().maxRSS * 1024 }))
}

async function openInChromium(file: string): Promise<{ loadMs: number; openMs: number } | null> {
  if (!existsSync('/usr/bin/chromium')) return null
  const { chromium } = await import('playwright-core')
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'] })
  try {
    const page = await browser.newPage()
    const started = performance.now()
    await page.goto(pathToFileURL(file).href, { waitUntil: 'load', timeout: 120_000 })
    const loadMs = performance.now() - started
    // Timed inside the page: opening, drawing the dialogues, and the next frame.
    const openMs = (await page.evaluate(`(async () => {
      const started = performance.now()
      document.querySelector('details.scn').open = true
      await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve)))
      if (!document.querySelector('details.scn[open] .turn')) throw new Error('no dialogue was drawn')
      return performance.now() - started
    })()`)) as number
    return { loadMs, openMs }
  } finally {
    await browser.close()
  }
}

async function main(): Promise<void> {
  if (values.render) return renderInThisProcess(values.render)
  const options = { seed: 42, scenarios: Number(values.scenarios), k: Number(values.k), turns: Number(values.turns), extraAnswerChars: Number(values['answer-chars']) }
  const results = await mkdtemp(join(tmpdir(), 'convy-bench-report-'))
  try {
    const generated = performance.now()
    const { dir } = await writeSyntheticRun(results, options)
    const attemptsBytes = (await stat(join(dir, 'attempts.jsonl'))).size
    console.log(`run: ${options.scenarios} scenarios × ${options.k} attempts, ${options.turns} user turns each; attempts.jsonl ${mb(attemptsBytes)} (generated in ${((performance.now() - generated) / 1000).toFixed(1)} s)`)
    const child = spawnSync(process.execPath, ['--import', 'tsx', 'bench/report.ts', '--render', dir], { encoding: 'utf8' })
    if (child.status !== 0) throw new Error(`rendering failed:\n${child.stderr}`)
    const measured = JSON.parse(child.stdout.trim().split('\n').at(-1)!) as { ms: number; rssBefore: number; peakRss: number }
    const file = join(dir, 'report.html')
    console.log(`report.html: ${mb((await stat(file)).size)}, written in ${(measured.ms / 1000).toFixed(2)} s`)
    console.log(`memory: peak RSS ${mb(measured.peakRss)} (the process held ${mb(measured.rssBefore)} before rendering)`)
    const browser = await openInChromium(file)
    if (browser) console.log(`chromium: page loaded in ${(browser.loadMs / 1000).toFixed(2)} s; a scenario opened with its dialogues in ${browser.openMs.toFixed(0)} ms`)
    else console.log('chromium: not installed at /usr/bin/chromium, page load not measured')
    if (values.keep) console.log(`kept: ${file}`)
  } finally {
    if (!values.keep) await rm(results, { recursive: true, force: true })
  }
}

await main()
