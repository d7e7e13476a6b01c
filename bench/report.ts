// Measures report.html for a large run: render time, file size and peak memory of the process that
// writes it, then how long Chromium takes to open the page and to open a scenario in it. Then the
// comparison of two such runs as `convy-ci compare` makes it (both folders read, compared, and the
// compare page written): its time, page size and peak memory.
//
//   node --import tsx bench/report.ts [--scenarios 500] [--k 20] [--turns 4] [--answer-chars 400] [--keep]
//
// The run folders are generated (test/fakes/synthetic-run.ts) into a temporary directory. The report
// and the comparison each run in a child process of their own, which prints its peak resident set
// (process.resourceUsage().maxRSS, the kernel's high-water mark), so the figure is that work's alone,
// not the generator's.
import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdtemp, rm, stat } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { parseArgs } from 'node:util'
import { compareRuns } from '../src/verdict/compare-runs.ts'
import { compareFoldersToPage } from '../src/app/pipeline/write-compare-page.ts'
import { writeRunReport } from '../src/app/pipeline/write-report.ts'
import { writeSyntheticRun } from '../test/fakes/synthetic-run.ts'

const { values } = parseArgs({
  options: {
    scenarios: { type: 'string', default: '500' },
    k: { type: 'string', default: '20' },
    turns: { type: 'string', default: '4' },
    'answer-chars': { type: 'string', default: '400' },
    render: { type: 'string' },
    compare: { type: 'string', multiple: true },
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

async function compareInThisProcess([beforeDir, afterDir, resultsDir]: string[]): Promise<void> {
  const before = process.memoryUsage().rss
  const started = performance.now()
  const { path } = await compareFoldersToPage(resultsDir!, { before: beforeDir!, after: afterDir! }, (b, a) => compareRuns(b, a, { now: new Date('2026-11-21T10:00:00Z') }))
  const ms = performance.now() - started
  console.log(JSON.stringify({ ms, rssBefore: before, peakRss: process.resourceUsage().maxRSS * 1024, page: path }))
}

function inChild(args: string[]): { ms: number; rssBefore: number; peakRss: number; page?: string } {
  const child = spawnSync(process.execPath, ['--import', 'tsx', 'bench/report.ts', ...args], { encoding: 'utf8' })
  if (child.status !== 0) throw new Error(`${args[0]} failed:\n${child.stderr}`)
  return JSON.parse(child.stdout.trim().split('\n').at(-1)!)
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
  if (values.compare) return compareInThisProcess(values.compare)
  const options = { seed: 42, scenarios: Number(values.scenarios), k: Number(values.k), turns: Number(values.turns), extraAnswerChars: Number(values['answer-chars']) }
  const results = await mkdtemp(join(tmpdir(), 'convy-bench-report-'))
  try {
    const generated = performance.now()
    const { dir } = await writeSyntheticRun(results, options)
    const attemptsBytes = (await stat(join(dir, 'attempts.jsonl'))).size
    console.log(`run: ${options.scenarios} scenarios × ${options.k} attempts, ${options.turns} user turns each; attempts.jsonl ${mb(attemptsBytes)} (generated in ${((performance.now() - generated) / 1000).toFixed(1)} s)`)
    const measured = inChild(['--render', dir])
    const file = join(dir, 'report.html')
    console.log(`report.html: ${mb((await stat(file)).size)}, written in ${(measured.ms / 1000).toFixed(2)} s`)
    console.log(`memory: peak RSS ${mb(measured.peakRss)} (the process held ${mb(measured.rssBefore)} before rendering)`)
    const browser = await openInChromium(file)
    if (browser) console.log(`chromium: page loaded in ${(browser.loadMs / 1000).toFixed(2)} s; a scenario opened with its dialogues in ${browser.openMs.toFixed(0)} ms`)
    else console.log('chromium: not installed at /usr/bin/chromium, page load not measured')
    // A second run of the same size, a day later and with other outcomes: the pull request's run.
    const after = await writeSyntheticRun(results, { ...options, seed: options.seed + 1, startedAt: new Date('2026-11-21T09:30:00Z') })
    const compared = inChild(['--compare', dir, '--compare', after.dir, '--compare', results])
    console.log(
      `compare of two ${options.scenarios * options.k}-attempt runs: ${(compared.ms / 1000).toFixed(2)} s, page ${mb((await stat(compared.page!)).size)}; ` +
        `memory: peak RSS ${mb(compared.peakRss)} (the process held ${mb(compared.rssBefore)} before comparing)`,
    )
    if (values.keep) console.log(`kept: ${file}`)
  } finally {
    if (!values.keep) await rm(results, { recursive: true, force: true })
  }
}

await main()
