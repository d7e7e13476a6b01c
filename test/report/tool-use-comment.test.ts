import assert from 'node:assert/strict'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { after, before, describe, test } from 'node:test'
import type { Browser } from 'playwright-core'
import type { Attempt, ToolCall } from '../../src/records/journal/records.ts'
import { tallyRecord } from '../../src/records/tally/run-tally.ts'
import { compareRuns } from '../../src/verdict/compare-runs.ts'
import { renderComparePage } from '../../src/views/compare/compare-page.ts'
import { comparisonMarkdown } from '../../src/views/markdown/compare-markdown.ts'
import { syntheticRun } from '../fakes/synthetic-run.ts'
import { githubComment, launchChromium, NO_CHROMIUM } from './browser-harness.ts'

/**
 * A pull request that dropped one tool call: `refund-late-order` looked the order up in 5 of 5
 * attempts before and in none after (at k = 10: one scenario made slower can be told alone only from k = 10, docs/statistics.md), while its claims held as before. The comment says so where a
 * reviewer reads first (not in a folded table), with the same exact test as the pass rates; the
 * compare page says it in the scenario; names from the agent stay text. pass^k comes with it.
 *
 * CONVY_SCREENSHOTS=docs writes the rendered comment to docs/pr-comment-tools.png (the first 900 px: a
 * reviewer's first screen).
 */
const MIX = [0.98, 0.98, 0.85, 0.98, 0.55, 0.98, 0.85, 0.98, 0.85, 0.55]
const HOSTILE = '<img src=x onerror="window.__pwned=1">'
const SLOWED = 'cancel-subscription'

/** The run, with each attempt of `scenario` making `calls` on its first answer. */
function withCalls(run: { manifest: ReturnType<typeof syntheticRun>['manifest']; attempts: Attempt[] }, scenario: string, calls: ToolCall[]) {
  const attempts = run.attempts.map((a) => {
    if (a.scenario !== scenario) return a
    const first = a.turns.findIndex((t) => t.role === 'agent' && t.error === null)
    return { ...a, turns: a.turns.map((t, i) => (i === first ? { ...t, toolCalls: calls } : t)) }
  })
  return { ...run, attempts }
}

/** The run with every answer of `scenario` taking `factor` times as long. */
function slowedDown(run: { manifest: ReturnType<typeof syntheticRun>['manifest']; attempts: Attempt[] }, scenario: string, factor: number) {
  return { ...run, attempts: run.attempts.map((a) => (a.scenario !== scenario ? a : { ...a, turns: a.turns.map((t) => (t.role === 'agent' ? { ...t, seconds: t.seconds * factor } : t)) })) }
}

function runs(tool = 'get_order') {
  const lookup: ToolCall = { name: tool, arguments: { order_id: '88231' }, result: { status: 'delayed', days_late: 6 } }
  const refund: ToolCall = { name: 'issue_refund', arguments: { order_id: '88231', reason: 'late' }, result: { refund_id: 'R-5521' } }
  const at = (seed: number, day: string) => syntheticRun({ seed, scenarios: 10, k: 10, startedAt: new Date(day), passProbability: (i) => MIX[i % 10]! })
  return {
    before: withCalls(at(1, '2026-11-20T09:30:00Z'), 'refund-late-order', [lookup, refund]),
    // The same pull request made another scenario's answers three times slower.
    after: slowedDown(withCalls(at(2, '2026-11-21T09:30:00Z'), 'refund-late-order', [refund]), SLOWED, 3),
  }
}

function comparisonOf(r: ReturnType<typeof runs>) {
  return compareRuns(tallyRecord(r.before), tallyRecord(r.after), { now: new Date('2026-11-21T10:00:00Z') })
}

describe('a PR that dropped one tool call', () => {
  test('the comparison finds it, beyond noise, and the comment says it before anything folded', () => {
    const c = comparisonOf(runs())
    assert.deepEqual(
      c.toolUse.scenarios.map((s) => [s.id, s.changes.map((x) => [x.tool, x.kind, x.significant])]),
      [['refund-late-order', [['get_order', 'dropped', true]]]],
    )
    const markdown = comparisonMarkdown(c, { reportUrl: 'https://github.com/acme/support-bot/actions/runs/12345/artifacts/67890' })
    const line = '🔧 **get\\_order** no longer called: 10/10 → 0/10 attempts (p < 0.0001)'
    assert.ok(markdown.includes(line), markdown)
    const folded = markdown.indexOf('<details>')
    assert.ok(markdown.indexOf(line) < (folded < 0 ? Infinity : folded), 'not folded away')
    // The scenario made slower is said in the Speed and cost section, before anything folded, and only it.
    assert.deepEqual(c.speed.scenarios.filter((x) => x.change !== null).map((x) => [x.id, x.change]), [[SLOWED, 'higher']])
    const slower = markdown.indexOf(`${SLOWED.replace(/-/g, '-')}: answers`)
    assert.ok(slower > 0 && slower < (folded < 0 ? Infinity : folded), markdown)
    // The synthetic suite has flaky scenarios: pass³ and pass@3 come with the pass rate, with their meaning.
    assert.match(markdown, /\| pass³ \(all 3 pass\) \| \d+% \| \d+% \| [^|]+ \|\n\| pass@3 \(one of 3 passes\) \|/)
    assert.match(markdown, /\*pass³: the chance that 3 fresh attempts of a scenario all pass; pass@3: that at least one of them does/)
  })

  test('a tool name from the agent is neutralised in the comment and escaped on the page', () => {
    const r = runs(HOSTILE)
    const c = comparisonOf(r)
    const markdown = comparisonMarkdown(c)
    assert.ok(markdown.includes('🔧 **&lt;img src=x onerror="window.\\_\\_pwned=1"&gt;** no longer called'), markdown)
    assert.doesNotMatch(markdown, /<img/)
    const page = renderComparePage(c, r)
    assert.match(page, /<h3>Tool use<\/h3>.*<li><code>&lt;img src=x onerror=&quot;window.__pwned=1&quot;&gt;<\/code> no longer called: 10\/10 → 0\/10 attempts \(p &lt; 0.0001\)<\/li>/s)
    assert.match(page, /<h2>Reliability<\/h2><div class="card"><div class="reliability"><span class="k">pass<sup>3<\/sup> <b>\d+%<\/b> → <b>\d+%<\/b><\/span>/)
    assert.doesNotMatch(page, /<img src=x/)
  })

  describe('rendered as GitHub renders the comment', { skip: NO_CHROMIUM }, () => {
    let browser: Browser
    let dir: string
    before(async () => {
      browser = await launchChromium()
      dir = await mkdtemp(join(tmpdir(), 'convy-tool-comment-'))
    })
    after(async () => {
      await browser?.close()
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
})
