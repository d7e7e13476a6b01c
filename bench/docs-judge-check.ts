// Makes the pictures and the sample output of docs/judge-check.md: a synthetic run's report opened in
// headless Chromium, some claim decisions labelled with the page's own buttons, the labels downloaded
// and checked with `convy-ci judge-check`. Run: node --import tsx bench/docs-judge-check.ts
import { mkdtemp, readFile, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { readAllAttempts } from '../src/records/journal/read-run.ts'
import { writeRunReport } from '../src/app/pipeline/write-report.ts'
import { runInProcess } from '../test/cli/harness.ts'
import { writeSyntheticRun } from '../test/fakes/synthetic-run.ts'
import { launchChromium } from '../test/report/browser-harness.ts'

const results = await mkdtemp(join(tmpdir(), 'convy-docs-'))
const run = await writeSyntheticRun(results, { seed: 26, scenarios: 8, k: 4 })
const attempts = await readAllAttempts(run.dir)
const browser = await launchChromium()
const context = await browser.newContext({ acceptDownloads: true, viewport: { width: 1100, height: 900 }, deviceScaleFactor: 1, colorScheme: 'light' })
const page = await context.newPage()
await page.goto(pathToFileURL(await writeRunReport(run.dir)).href)

// Label every claim decision of the run: Right, except a few the "person" finds wrong, chosen by a
// fixed rule so the output is the same each time.
const labelled = attempts.filter((a) => a.claims.length > 0)
let n = 0
for (const a of labelled) {
  const scn = page.locator(`details.scn[data-id="${a.scenario}"]`)
  await scn.evaluate((d) => ((d as unknown as { open: boolean }).open = true))
  const att = scn.locator(`details.att[data-attempt="${a.attempt}"]`)
  await att.evaluate((d) => ((d as unknown as { open: boolean }).open = true))
  for (let claim = 1; claim <= a.claims.length; claim++) {
    n++
    await att.locator(`li[data-claim="${claim}"] button[data-pick="${n % 9 === 4 || n % 13 === 0 ? 'wrong' : 'right'}"]`).click()
  }
}
// The picture: one failed attempt, open, with its labelled decisions and the bar above the list.
await page.evaluate("document.querySelectorAll('details').forEach((d) => { d.open = false })")
const failed = labelled.find((a) => a.verdict === 'failed' && a.claims.length > 1)!
await page.evaluate(`(() => { const s = document.querySelector('details.scn[data-id="${failed.scenario}"]'); s.open = true; s.querySelector('details.att[data-attempt="${failed.attempt}"]').open = true; })()`)
// In the picture, the person finds the judge wrong on the second claim.
await page.locator(`details.scn[data-id="${failed.scenario}"] details.att[data-attempt="${failed.attempt}"] li[data-claim="2"] button[data-pick="wrong"]`).click()
await page.locator('#labels').screenshot({ path: 'docs/judge-labels-bar.png' })
const attempt = page.locator(`details.scn[data-id="${failed.scenario}"] details.att[data-attempt="${failed.attempt}"]`)
// The attempt's summary and decisions; its dialogue below is left out of the picture.
await attempt.evaluate((el) => (el as unknown as { scrollIntoView(o: object): void }).scrollIntoView({ block: 'start' }))
await page.evaluate('window.scrollBy(0, -10)')
const top = (await attempt.boundingBox())!
const list = (await attempt.locator('ul.decisions').boundingBox())!
await page.screenshot({ path: 'docs/judge-labels.png', clip: { x: top.x - 8, y: top.y - 8, width: top.width + 16, height: list.y + list.height - top.y + 16 } })
const [download] = await Promise.all([page.waitForEvent('download'), page.click('#labels-download')])
const labels = await readFile((await download.path())!, 'utf8')
await browser.close()
await writeFile(join(results, 'labels.jsonl'), labels)
const checked = await runInProcess(['judge-check', 'labels.jsonl', '--results', '.'], { cwd: results })
process.stdout.write(`${labels.split('\n').slice(0, 3).join('\n')}\n…\n\n$ convy-ci judge-check labels.jsonl\n${checked.stdout}${checked.stderr}`)
