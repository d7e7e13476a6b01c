import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { compareRuns } from '../../src/verdict/compare-runs.ts'
import type { Comparison } from '../../src/verdict/comparison.ts'
import { commentMarker, comparisonMarkdown, MARKDOWN_LIMIT } from '../../src/views/markdown/compare-markdown.ts'
import { gate } from '../../src/verdict/gate.ts'
import { manifest, outcomes, run, scenario } from '../compare/run-builder.ts'
import { tallyRecord, type RunRecord } from '../../src/records/tally/run-tally.ts'

const now = new Date('2026-03-02T00:00:00Z')
const compare = (before: RunRecord, after: RunRecord): Comparison => compareRuns(tallyRecord(before), tallyRecord(after), { now })
const suite = (layout: Record<string, [before: number, after: number]>, k = 5) => {
  const settings = { ...manifest().settings, k }
  return {
    before: run(Object.fromEntries(Object.entries(layout).map(([id, [b]]) => [id, outcomes(b, k)])), { manifest: { settings } }),
    after: run(Object.fromEntries(Object.entries(layout).map(([id, [, a]]) => [id, outcomes(a, k)])), { manifest: { settings } }),
  }
}
const many = (n: number, pair: [number, number], prefix = 's') => Object.fromEntries(Array.from({ length: n }, (_, i) => [`${prefix}${i}`, pair]))

/** The markup convy-ci itself writes; anything else that looks like HTML came from the runs. */
function assertOnlyOwnHtml(markdown: string): void {
  const stripped = markdown.replace(/<!-- convy-ci:[^>]*? -->/, '').replace(/<\/?(details|summary)>|<br>/g, '')
  assert.doesNotMatch(stripped, /<[a-z/!?]/i, 'no HTML other than the marker, details and summary')
}

describe('comparisonMarkdown', () => {
  test('starts with the hidden marker of the after run’s agent', () => {
    const { before, after } = suite({ a: [5, 5] })
    const markdown = comparisonMarkdown(compare(before, after))
    assert.equal(markdown.split('\n')[0], '<!-- convy-ci:bot -->')
    assert.equal(commentMarker('support_bot'), '<!-- convy-ci:support_bot -->')
  })

  test('a marker cannot be closed early or confused with another agent’s', () => {
    const marker = commentMarker('evil --> <img src=x onerror=alert(1)>')
    assert.equal(marker.indexOf('-->'), marker.length - 3)
    assert.doesNotMatch(marker.slice(4, -3), /[<>]/)
    assert.notEqual(commentMarker('a b'), commentMarker('a_b'))
  })

  test('the headline carries the verdict: red Worse, green Better, grey ~ within noise', () => {
    const broken = suite({ ...many(19, [5, 5]), broken: [5, 0] })
    assert.match(comparisonMarkdown(compare(broken.before, broken.after)), /^### 🟥 Worse · bot$/m)
    assert.match(comparisonMarkdown(compare(broken.after, broken.before)), /^### 🟩 Better · bot$/m)
    const noisy = suite({ ...many(10, [5, 5]), wobbly: [4, 3] })
    const markdown = comparisonMarkdown(compare(noisy.before, noisy.after))
    assert.match(markdown, /^### ⬜ ~ Within noise · bot$/m)
    assert.match(markdown, /The pass rate went from 98% to 96% \(Δ −2 pp\), within noise/)
  })

  test('Worse comes first, then Better; Same and Not compared are folded', () => {
    const { before, after } = suite({ ...many(10, [5, 5]), down: [5, 0], up: [0, 5] })
    before.manifest.scenarios.push(scenario('gone'))
    const markdown = comparisonMarkdown(compare(before, after))
    const at = (text: string) => markdown.indexOf(text)
    assert.ok(at('🟥 Worse (1)') > 0 && at('🟥 Worse (1)') < at('🟩 Better (1)'))
    assert.ok(at('🟩 Better (1)') < at('<details><summary>~ Same, within noise (10)</summary>'))
    assert.ok(at('<summary>~ Same') < at('<details><summary>Not compared (1)</summary>'))
    assert.match(markdown, /\| down \| 5\/5 \| 0\/5 \| −100 pp \| 0\.0040 \|/)
    assert.match(markdown, /\| gone \| removed: only in the before run \| not played \| – \|/)
  })

  test('the tiles: before, after and the change, with ~ when the pass rate is within noise; only the tiles that say something', () => {
    const { before, after } = suite({ a: [5, 4], b: [5, 5] })
    const markdown = comparisonMarkdown(compare(before, after))
    assert.match(markdown, /\| Pass rate \| 100% · 10 of 10 \| 90% · 9 of 10 \| ~ −10 pp \|/)
    assert.match(markdown, /\| Stable scenarios \| 2 of 2 \| 1 of 2 \| −1 \|/)
    // Nothing to say: the same attempts, no errors on either side, times within noise.
    assert.doesNotMatch(markdown, /\| (Attempts|Errors|Answer time|Tokens per attempt|Cost) \|/)
    const errored = suite({ a: [5, 5], b: [5, 5] })
    const attempts = [...errored.after.attempts, { ...errored.after.attempts[1]!, attempt: 6 }]
    attempts[0] = { ...attempts[0]!, verdict: 'agent_error' }
    const withErrors = comparisonMarkdown(compare(errored.before, { ...errored.after, attempts }))
    assert.match(withErrors, /\| Errors \| 0 agent errors · 0 no verdict \| 1 agent error · 0 no verdict \|/)
    assert.match(withErrors, /\| Attempts \| 10 \| 11 \| \+1 \|/)
  })

  test('the statistics in words: within noise with the numbers, never "no change"', () => {
    const { before, after } = suite(many(20, [3, 3]), 3)
    for (let i = 0; i < 20; i++) before.attempts[i * 3]!.verdict = i < 18 ? 'passed' : 'failed'
    const markdown = comparisonMarkdown(compare(before, after))
    assert.doesNotMatch(markdown, /no change/i)
    assert.match(markdown, /<details><summary>Statistics<\/summary>\n\nWithin noise: the pass rate went from /)
    assert.match(markdown, /p = 0\.\d+\); calling it (worse|better) takes p ≤ 0\.01/)
  })

  test('says what this comparison could detect: 20 scenarios, 3 attempts, from 90%', () => {
    const { before, after } = suite({ ...many(14, [3, 3]), ...many(6, [2, 2], 't') }, 3)
    const markdown = comparisonMarkdown(compare(before, after))
    // At the overall test's one-sided 0.01 (tuned by bench:verdict and bench:gate), and the scenarios' family-wise 0.02.
    assert.match(markdown, /With 3 attempts per scenario, only a drop of 28 points or more \(from 90%\) would register reliably; no single scenario can register on its own \(even 3\/3 → 0\/3 does not reach one-sided p ≤ 0\.02: 0\.02 over 1 testable scenario, Tarone\)\./)
    const two = suite(many(5, [2, 2]), 2)
    assert.match(comparisonMarkdown(compare(two.before, two.after)), /no single scenario can register on its own \(even 2\/2 → 0\/2 does not reach/)
    const five = suite(many(20, [5, 5]), 5)
    assert.match(comparisonMarkdown(compare(five.before, five.after)), /a single scenario registers only if it goes 5\/5 → 0\/5 or lower \(one-sided p ≤ 0\.02: 0\.02 over 1 testable scenario, Tarone\)/)
  })

  test('a Worse row links its scenario in the report and names the claims that moved; the report link comes before the tables', () => {
    const { before, after } = suite({ ...many(10, [5, 5]), refund: [5, 0] })
    const claims = (held: boolean) => [
      { claim: 'The agent asked why', pass: true, reason: 'it did' },
      { claim: 'The agent offered a refund @team', pass: held, reason: held ? 'it did' : 'it did not' },
    ]
    for (const a of before.attempts) if (a.scenario === 'refund') a.claims = claims(true)
    for (const a of after.attempts) if (a.scenario === 'refund') a.claims = claims(a.verdict === 'passed')
    const markdown = comparisonMarkdown(compare(before, after), { reportUrl: 'https://example.com/r.html' })
    const row = markdown.split('\n').find((line) => line.startsWith('| [refund]'))
    assert.ok(row, markdown)
    assert.equal(row, '| [refund](https://example.com/r.html#scenario-refund) | 5/5 | 0/5 | −100 pp | 0.0040 | “The agent offered a refund @\u200dteam” 5/5 → 0/5 |')
    const lines = markdown.split('\n')
    const link = lines.findIndex((line) => line.includes('[Full report](https://example.com/r.html)'))
    assert.ok(link > 0 && link < lines.findIndex((line) => line.startsWith('| Pass rate')), 'the report link is above the tiles')
    assertOnlyOwnHtml(markdown)
  })

  test('below the k where one broken scenario can register, the first line says the comparison cannot tell', () => {
    // The case: k = 1, three of five scenarios went 1/1 → 0/1, "within noise".
    const { before, after } = suite({ ...many(3, [1, 0]), ...many(2, [1, 1], 't') }, 1)
    const c = compare(before, after)
    assert.equal(c.verdict, 'within-noise')
    const [, , heading, , reason] = comparisonMarkdown(c).split('\n')
    assert.match(heading!, /^### ⬜ \? Inconclusive, too little to tell · k = 1 detects only drops of \d+ points; k = 4 would tell · bot$/)
    assert.match(reason!, /^Cannot tell: k = 1 detects only drops of \d+ points or more in the pass rate, and no single scenario can register/)
    assert.equal(gate(c, { failOn: 'worse' }).outcome, 'inconclusive')
    // At k = 5 the same comparison within noise is a plain "Within noise".
    const five = suite(many(20, [5, 5]), 5)
    assert.match(comparisonMarkdown(compare(five.before, five.after)), /### ⬜ ~ Within noise · bot/)
  })

  test('possible regressions and growing no-verdicts are listed where they are seen', () => {
    const { before, after } = suite({ ...many(3, [3, 3]), slipping: [4, 0], shaky: [3, 3] })
    // shaky: 3/5 before; after, 3/5 again and 10 more attempts without a verdict.
    const shaky = after.attempts.find((a) => a.scenario === 'shaky')!
    const withoutVerdict = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10].map((i) => ({ ...shaky, attempt: 10 + i, verdict: 'no_verdict' as const }))
    const markdown = comparisonMarkdown(compare(before, { ...after, attempts: [...after.attempts, ...withoutVerdict] }))
    assert.match(markdown, /\*\*Worth a look\*\*\n\n- slipping: possible regression \(not significant after correction, p = 0\.024\)/)
    assert.match(markdown, /- shaky: more attempts with no verdict: 0 → 10 of 15 \(p = 0\.016\)/)
  })

  test('an agent that failed every attempt is said under the verdict, in its own words, neutralised; other warnings stay last', () => {
    const before = run({ a: 'PPPPP', b: 'PPPPP', c: 'PPPPP' }, { manifest: { models: { ...manifest().models, judge: 'old-judge' } } })
    const after = run({ a: 'EEEEE', b: 'EEEEE', c: 'EEEEE' })
    after.attempts = after.attempts.map((a) => ({ ...a, error: 'turn 1: could not reach POST ***/chat: @team <img src=x> ECONNREFUSED' }))
    const markdown = comparisonMarkdown(compare(before, after))
    const lines = markdown.split('\n')
    const errors = lines.findIndex((l) => l.startsWith('> ⚠️ The agent failed 15 of 15 attempts'))
    const firstTable = lines.findIndex((l) => l.startsWith('|'))
    assert.ok(errors > 0 && errors < firstTable, 'under the verdict, above the tables')
    assert.ok(lines[errors]!.includes('Most often \\(15\\): could not reach POST \\*\\*\\*/chat: '), lines[errors])
    assert.doesNotMatch(lines[errors]!, /@team|<img/)
    const judge = lines.findIndex((l) => l.includes('The judge changed from'))
    assert.ok(judge > firstTable, 'the other warnings come last')
    assertOnlyOwnHtml(markdown)
  })

  test('text from the runs is neutralised: scenario ids, agent, models, branch', () => {
    const evil = ['<img src=x onerror=alert(1)>', '@octocat please', '![x](http://evil.example/x.png)', 'a|b', '</details><details open>', '`code`']
    const scenarios = Object.fromEntries(evil.map((id) => [id, scenario(id)]))
    const layout = Object.fromEntries(evil.map((id, i) => [id, i % 2 ? 'PPPPP' : 'FFFFF']))
    const models = { user: '<script>x</script>', judge: '@admin', fingerprint: 'f', prices: {} }
    const before = run(Object.fromEntries(evil.map((id) => [id, 'PPPPP'])), { scenarios })
    const after = run(layout, { scenarios, manifest: { agent: { ...manifest().agent, name: '<b>bot</b>' }, models, ci: { commit: '<x>', branch: '[x](y)', pullRequest: 3 } } })
    const markdown = comparisonMarkdown(compare(before, after))
    assertOnlyOwnHtml(markdown)
    assert.doesNotMatch(markdown, /@octocat|@admin|\]\(http|!\[/)
    assert.doesNotMatch(markdown, /(^|[^\\])`/, 'no unescaped backtick')
    // Every row of a table has as many cell borders as its header: no pipe from the runs split a cell.
    for (const block of markdown.split(/\n\n/).filter((b) => b.startsWith('|'))) {
      const borders = block.split('\n').map((line) => line.split(/(?<!\\)\|/).length)
      assert.ok(borders.every((n) => n === borders[0]), `a pipe broke the table:\n${block}`)
    }
  })

  test('links only an http(s) report address', () => {
    const { before, after } = suite({ a: [5, 5] })
    const c = compare(before, after)
    assert.match(comparisonMarkdown(c, { reportUrl: 'https://example.com/a (1).html' }), /\[Full report\]\(https:\/\/example\.com\/a%20%281%29\.html\)/)
    assert.doesNotMatch(comparisonMarkdown(c, { reportUrl: 'javascript:alert(1)' }), /Full report|javascript/)
  })

  test('nothing to compare still makes a short, clear text', () => {
    const markdown = comparisonMarkdown(compare(run({ a: 'PPP' }), run({ b: 'PPP' })))
    assert.match(markdown, /No scenario could be compared\./)
    assert.match(markdown, /No scenario could be compared: there is no verdict on the pass rate\./)
  })
})

describe('the size cap', () => {
  // 2,000 scenarios with ids longer than is shown, 10 attempts each: 500 worse, 100 better, the rest
  // the same or not compared.
  const longId = (i: number) => `scenario-${String(i).padStart(4, '0')}-${'x'.repeat(120)}`
  const layout: Record<string, [number, number]> = {}
  for (let i = 0; i < 2000; i++) layout[longId(i)] = i < 500 ? [10, 0] : i < 600 ? [0, 10] : i < 1900 ? [10, 10] : [6, 6]
  const { before, after } = suite(layout, 10)
  after.manifest.scenarios = after.manifest.scenarios.slice(0, 1950)
  after.attempts = after.attempts.filter((a) => Number(a.scenario.slice(9, 13)) < 1950)
  const c = compare(before, after)

  test('stays under 60,000 characters with 2,000 scenarios, keeping Worse first and saying what was left out', () => {
    assert.equal(c.scenarios.worse.length, 500)
    const markdown = comparisonMarkdown(c, { reportUrl: 'https://example.com/report.html' })
    assert.ok(markdown.length <= MARKDOWN_LIMIT, `length ${markdown.length}`)
    assert.ok(markdown.length > MARKDOWN_LIMIT - 1000, 'the space is used')
    const worseRows = markdown.match(/\| \[scenario-0[0-4]\d\d-x+…\]\(https:\/\/example\.com\/report\.html#scenario-scenario-0[0-4]\d\d-x+\) \|/g)?.length ?? 0
    // Each row carries its link into the report (the whole id in the address), so fewer fit than plain rows.
    assert.ok(worseRows > 150, `${worseRows} worse rows`)
    assert.ok(markdown.includes(`…and ${500 - worseRows} more scenarios, listed in the [full report](https://example.com/report.html).`))
    for (const [title, count] of [['🟩 Better', '100'], ['~ Same, within noise', '1,350'], ['Not compared', '50']] as const) {
      assert.ok(markdown.includes(`${title} (${count})`), `${title} is still there`)
      assert.ok(markdown.indexOf(`${title} (${count})`) > markdown.indexOf('🟥 Worse (500)'))
    }
    assert.match(markdown, /1,350 scenarios: too many to list here; see the \[full report\]/)
    assert.match(markdown, /<summary>Statistics<\/summary>/, 'the statistics are never cut')
    assert.equal((markdown.match(/<details>/g) ?? []).length, (markdown.match(/<\/details>/g) ?? []).length)
  })

  test('honours a smaller limit the same way', () => {
    for (const maxLength of [8000, 20_000]) {
      const markdown = comparisonMarkdown(c, { maxLength })
      assert.ok(markdown.length <= maxLength, `${maxLength}: length ${markdown.length}`)
      assert.match(markdown, /🟥 Worse \(500\)[^]*…and \d+ more scenarios, listed in the full report\./)
    }
  })

  test('a small run is never cut', () => {
    const small = suite(many(50, [5, 4]))
    const markdown = comparisonMarkdown(compare(small.before, small.after))
    assert.doesNotMatch(markdown, /more scenarios?, listed/)
    assert.equal(markdown.match(/\| s\d+ \|/g)?.length, 50)
  })
})
