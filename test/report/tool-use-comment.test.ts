import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { renderComparePage } from '../../src/views/compare/compare-page.ts'
import { comparisonMarkdown } from '../../src/views/markdown/compare-markdown.ts'
import { comparisonOf, HOSTILE, runs, SLOWED } from './tool-use-runs.ts'

/**
 * A pull request that dropped one tool call: `refund-late-order` looked the order up in 5 of 5
 * attempts before and in none after (at k = 10: one scenario made slower can be told alone only from k = 10, docs/statistics.md), while its claims held as before. The comment says so where a
 * reviewer reads first (not in a folded table), with the same exact test as the pass rates; the
 * compare page says it in the scenario; names from the agent stay text. pass^k comes with it.
 *
 * The comment as GitHub renders it, in Chromium: browser/tool-use-comment.ts.
 */
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
})
