import assert from 'node:assert/strict'
import { mkdtemp, readFile, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, test } from 'node:test'
import { parseRunSummary, summarizeRun, summaryJson, SUMMARY_MAX_BYTES, type RunSummary } from '../../src/records/tally/run-summary.ts'
import { flakyOnBranch, HISTORY_FILE, readHistory, trendOf, writeHistory, type History, type ScenarioTrend } from '../../src/records/tally/trend.ts'
import { tallyRecord } from '../../src/records/tally/run-tally.ts'
import { sparkline, sparklineLabel, trendWords, movedTrendWords } from '../../src/views/page/trend-view.ts'
import { renderRunReport } from '../../src/views/run/run-report.ts'
import { renderComparePage } from '../../src/views/compare/compare-page.ts'
import { comparisonMarkdown } from '../../src/views/markdown/compare-markdown.ts'
import { compareRuns } from '../../src/verdict/compare-runs.ts'
import { manifest, outcomes, run } from '../compare/run-builder.ts'
import { assertNoInjectedMarkup } from './markup-check.ts'

/** A summary of a default-branch run of agent `bot`: `{ id: [passed, judged] }`, started `day` days in. */
function summary(day: number, scenarios: Record<string, [number, number] | null>, extra: Partial<RunSummary> = {}): RunSummary {
  const stamp = `2026-02-${String(day).padStart(2, '0')}`
  return {
    format: 1,
    run: `bot/${stamp}T10-00-00_${String(day).padStart(4, '0')}`,
    agent: 'bot',
    commit: 'a'.repeat(40),
    branch: 'main',
    startedAt: `${stamp}T10:00:00.000Z`,
    finishedAt: `${stamp}T10:05:00.000Z`,
    state: 'finished',
    k: 5,
    scenarios: Object.entries(scenarios)
      .filter((e): e is [string, [number, number]] => e[1] !== null)
      .map(([id, [passed, judged]]) => ({ id, attempts: judged, passed, judged, errors: 0, noVerdicts: 0, medianAnswerSeconds: 1, costUsd: null })),
    medianAnswerSeconds: 1,
    costUsd: null,
    ...extra,
  }
}

const history = (summaries: RunSummary[], branch: string | null = 'main'): History => ({ branch, entries: summaries.map((s, i) => ({ workflowRun: 100 + i, summary: s })) })
/** The run being shown: after every summary above (they are in February). */
const current = { id: 'bot/2026-03-01T10-00-00_a1b2', agent: 'bot', startedAt: '2026-03-01T10:00:00.000Z' }
const trendFor = (summaries: RunSummary[], id: string): ScenarioTrend => trendOf(history(summaries), current)!.scenarios.get(id)!

describe('the run summary', () => {
  test('round trip: a tally summarised, written and read back is the same summary', () => {
    const record = run({ refund: 'PPPFE', greet: 'PPPPP' }, { manifest: { ci: { commit: 'c'.repeat(40), branch: 'main', pullRequest: null } } })
    const written = summarizeRun(tallyRecord(record))
    const read = parseRunSummary(summaryJson(written))
    assert.ok('summary' in read, JSON.stringify(read))
    assert.deepEqual(read.summary, written)
    assert.deepEqual(
      written.scenarios.map((s) => [s.id, s.attempts, s.passed, s.judged, s.errors]),
      [
        ['refund', 5, 3, 4, 1],
        ['greet', 5, 5, 5, 0],
      ],
    )
    assert.equal(written.commit, 'c'.repeat(40))
    assert.equal(written.scenarios[0]!.medianAnswerSeconds, 1)
  })

  test('fields it does not know are ignored; a format it does not know is left out, saying why', () => {
    const known = summary(1, { a: [5, 5] })
    const read = parseRunSummary(JSON.stringify({ ...known, addedLater: { x: 1 }, scenarios: known.scenarios.map((s) => ({ ...s, p90: 3 })) }))
    assert.ok('summary' in read)
    assert.deepEqual(read.summary, known)
    assert.match((parseRunSummary(JSON.stringify({ ...known, format: 2 })) as { problem: string }).problem, /format 2/)
  })

  test('what is not a summary is a problem, never an exception', () => {
    const huge = JSON.stringify(summary(1, { a: [5, 5] }, { agent: 'x'.repeat(SUMMARY_MAX_BYTES) }))
    const cases: [string, RegExp][] = [
      ['{', /not JSON/],
      ['[]', /not a run summary/],
      [JSON.stringify({ ...summary(1, { a: [5, 5] }), scenarios: [{ id: 'a', attempts: 1, passed: 3, judged: 3, errors: 0, noVerdicts: 0, medianAnswerSeconds: null, costUsd: null }] }), /do not add up/],
      [JSON.stringify({ ...summary(1, { a: [5, 5] }), scenarios: [...summary(1, { a: [5, 5] }).scenarios, ...summary(1, { a: [5, 5] }).scenarios] }), /twice/],
      [JSON.stringify({ ...summary(1, { a: [5, 5] }), k: -1 }), /not a run summary/],
      [huge, /at most/],
    ]
    for (const [text, problem] of cases) {
      const read = parseRunSummary(text)
      assert.ok('problem' in read, text.slice(0, 80))
      assert.match(read.problem, problem)
    }
  })

  test('20 scenarios make a summary of a few KB', () => {
    const ids = Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`scenario-number-${i}`, outcomes(4, 5)]))
    const bytes = Buffer.byteLength(summaryJson(summarizeRun(tallyRecord(run(ids, { manifest: { ci: { commit: 'c'.repeat(40), branch: 'main', pullRequest: null } } })))))
    assert.ok(bytes > 1_000 && bytes < 5_000, `${bytes} bytes`)
  })
})

describe('the trend', () => {
  test('runs oldest first; the run itself, later runs and other agents left out; a scenario missing from a run is a gap', () => {
    const runs = [summary(3, { a: [5, 5], b: [4, 5] }), summary(1, { a: [5, 5] }), summary(2, { a: [0, 5], b: [5, 5] }), summary(9, { a: [1, 5] }, { agent: 'other' })]
    const trend = trendOf(history([...runs, { ...summary(1, {}), run: current.id }, summary(1, { a: [2, 5] }, { run: 'bot/late', startedAt: '2026-04-01T00:00:00.000Z' })]), current)!
    assert.deepEqual(
      trend.runs.map((r) => r.run),
      [runs[1]!.run, runs[2]!.run, runs[0]!.run],
    )
    const a = trend.scenarios.get('a')!
    assert.deepEqual(a.points.map((p) => p && `${p.passed}/${p.judged}`), ['5/5', '0/5', '5/5'])
    assert.deepEqual([a.low, a.high, a.runs], [0, 1, 3])
    const b = trend.scenarios.get('b')!
    assert.deepEqual(b.points.map((p) => p && `${p.passed}/${p.judged}`), [null, '5/5', '4/5'])
    assert.equal(b.runs, 2)
    assert.equal(trendOf(history([summary(9, { a: [1, 5] }, { agent: 'other' })]), current), null)
  })

  test('flaky on the branch: three runs that passed in part, or three runs off its usual rate', () => {
    const p = (passed: number, judged = 5) => ({ run: 'r', startedAt: '', passed, judged })
    assert.equal(flakyOnBranch([p(5), p(5), p(5), p(5)]), false)
    assert.equal(flakyOnBranch([p(5), p(3), p(5), p(4), p(5)]), false, 'two runs in part')
    assert.equal(flakyOnBranch([p(5), p(3), p(5), p(4), null, p(3)]), true, 'three runs in part')
    assert.equal(flakyOnBranch([p(4), p(4), p(4), p(4)]), true, 'passes four of five in every run')
    assert.equal(flakyOnBranch([p(5), p(0), p(5), p(0), p(5), p(0)]), true, 'all or nothing, run to run')
    assert.equal(flakyOnBranch([p(5), p(5), p(5), p(0), p(0)]), false, 'broke twice: not yet a pattern')
  })

  test('in words: steady, ranging, flaky, and now', () => {
    const steady = trendFor(Array.from({ length: 10 }, (_, i) => summary(i + 1, { refund: [5, 5] })), 'refund')
    assert.equal(movedTrendWords(steady, 'main', { passed: 0, judged: 5 }), 'main: 10 runs at 100%, now 0/5')
    const flaky = trendFor([5, 3, 5, 4, 3, 5, 5, 4, 5, 5].map((x, i) => summary(i + 1, { refund: [x, 5] })), 'refund')
    assert.equal(trendWords(flaky, 'main'), 'flaky on main: 60–100% over 10 runs')
    const one = trendFor([summary(1, { refund: [3, 5] })], 'refund')
    assert.equal(trendWords(one, 'main'), 'main: 1 run at 60%')
  })
})

describe('the sparkline', () => {
  const circles = (svg: string) => (svg.match(/<circle /g) ?? []).length
  const polylines = (svg: string) => [...svg.matchAll(/<polyline points="([^"]*)"/g)].map((m) => m[1]!.split(' '))

  test('one run: a dot and no line; with this run, a second, marked dot', () => {
    const t = trendFor([summary(1, { a: [5, 5] })], 'a')
    const alone = sparkline(t, 'main', null).value
    assert.equal(circles(alone), 1)
    assert.deepEqual(polylines(alone), [])
    assert.match(alone, /width="6"/)
    const withNow = sparkline(t, 'main', { passed: 0, judged: 5 }).value
    assert.equal(circles(withNow), 2)
    assert.match(withNow, /<circle class="now" cx="12" cy="19"/)
  })

  test('all equal: one flat line at its rate', () => {
    const t = trendFor(Array.from({ length: 5 }, (_, i) => summary(i + 1, { a: [4, 5] })), 'a')
    const lines = polylines(sparkline(t, 'main', null).value)
    assert.equal(lines.length, 1)
    assert.equal(lines[0]!.length, 5)
    assert.equal(new Set(lines[0]!.map((point) => point.split(',')[1])).size, 1)
  })

  test('a run without the scenario breaks the line, and the text alternative names it', () => {
    const t = trendFor([summary(1, { a: [5, 5] }), summary(2, { a: [5, 5] }), summary(3, { b: [5, 5] }), summary(4, { a: [0, 5] }), summary(5, { a: [0, 5] })], 'a')
    const svg = sparkline(t, 'main', { passed: 1, judged: 5 }).value
    assert.deepEqual(polylines(svg).map((l) => l.length), [2, 2])
    assert.equal((svg.match(/class="gap"/g) ?? []).length, 1)
    assert.equal(circles(svg), 5)
    assert.equal(sparklineLabel(t, 'main', { passed: 1, judged: 5 }), 'Pass rate on main over the last 5 runs, oldest first: 100%, 100%, no verdict, 0%, 0%; this run: 20% (1/5)')
    assert.match(svg, /role="img" aria-label="Pass rate on main over the last 5 runs/)
    assert.match(svg, /<title>Pass rate on main/)
  })

  test('a branch name is text in the label, never markup', () => {
    const t = trendFor([summary(1, { a: [5, 5] })], 'a')
    const svg = sparkline(t, '"><script>alert(1)</script>', null).value
    assert.doesNotMatch(svg, /<script/)
    assert.match(svg, /&quot;&gt;&lt;script&gt;/)
  })
})

describe('the trend on the pages and in the comment', () => {
  const HOSTILE = '<script>alert(1)</script>'
  const runs = () =>
    Array.from({ length: 10 }, (_, i) => summary(i + 1, { refund: [5, 5], shaky: [[5, 3, 5, 4, 3, 5, 5, 4, 5, 5][i]!, 5], [HOSTILE]: [5, 5] }, { branch: HOSTILE }))
  const before = run({ refund: 'PPPPP', shaky: 'PPPPP', steady: 'PPPPP' }, { manifest: { id: 'bot/2026-03-01T09-00-00_0000', startedAt: '2026-03-01T09:00:00.000Z' } })
  const after = run({ refund: 'FFFFF', shaky: 'FFFFF', steady: 'PPPPP' })

  test('report.html draws a sparkline per scenario with history, says flaky on main, and keeps hostile text as text', () => {
    const page = renderRunReport({ ...after, history: history(runs()) })
    assertNoInjectedMarkup(page)
    assert.equal((page.match(/<svg class="spark"/g) ?? []).length, 2, 'refund and shaky; steady has no history')
    assert.equal((page.match(/<span class="tag flaky-main">flaky on main<\/span>/g) ?? []).length, 1)
    assert.match(page, /On main: 10 runs at 100%\./)
    const hostile = renderRunReport({ manifest: manifest({ scenarios: [{ ...before.manifest.scenarios[0]!, id: HOSTILE }] }), attempts: [{ ...after.attempts[0]!, scenario: HOSTILE }], history: history(runs(), HOSTILE) })
    assertNoInjectedMarkup(hostile)
    assert.match(hostile, /Pass rate on &lt;script&gt;alert\(1\)&lt;\/script&gt; over the last 10 runs/)
  })

  test('the compare page draws them too', () => {
    const c = compareRuns(tallyRecord(before), tallyRecord(after), { now: new Date('2026-03-02T00:00:00Z') })
    const page = renderComparePage(c, { before, after }, { history: history(runs()) })
    assertNoInjectedMarkup(page)
    assert.equal((page.match(/<svg class="spark"/g) ?? []).length, 2)
    assert.match(page, /aria-label="Pass rate on main over the last 10 runs, oldest first: 100%(, 100%){9}; this run: 0% \(0\/5\)"/)
  })

  test('the comment has a line only for the scenarios that moved, flaky ones said so', () => {
    const c = compareRuns(tallyRecord(before), tallyRecord(after), { now: new Date('2026-03-02T00:00:00Z') })
    assert.deepEqual(c.scenarios.worse.map((s) => s.id).sort(), ['refund', 'shaky'])
    const trend = trendOf(history(runs()), { id: after.manifest.id, agent: 'bot', startedAt: after.manifest.startedAt })
    const markdown = comparisonMarkdown(c, { trend })
    assert.match(markdown, /_main: 10 runs at 100%, now 0\/5_/)
    assert.match(markdown, /_flaky on main: 60–100% over 10 runs, now 0\/5_/)
    assert.equal((markdown.match(/runs?( at|, now| over)/g) ?? []).length, 2, 'steady did not move: no line')
    const plain = comparisonMarkdown(c)
    assert.doesNotMatch(plain, /on main|main:/)
    const hostile = comparisonMarkdown(c, { trend: trendOf(history(runs(), '<img src=x onerror=alert(1)>'), { id: after.manifest.id, agent: 'bot', startedAt: after.manifest.startedAt }) })
    assert.doesNotMatch(hostile, /<img/)
  })

  test('the history file: written, read back, a damaged summary in it left out with a problem', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'convy-trend-'))
    const file = join(dir, HISTORY_FILE)
    await writeHistory(file, history(runs().slice(0, 3)), new Date('2026-03-01T00:00:00Z'))
    const read = await readHistory(file)
    assert.deepEqual(read.problems, [])
    assert.equal(read.history!.entries.length, 3)
    assert.deepEqual(read.history, history(runs().slice(0, 3)))
    const json = JSON.parse(await readFile(file, 'utf8')) as { runs: { summary: unknown }[] }
    json.runs[1]!.summary = { format: 1, run: 42 }
    await writeFile(file, JSON.stringify(json))
    const damaged = await readHistory(file)
    assert.equal(damaged.history!.entries.length, 2)
    assert.equal(damaged.problems.length, 1)
    assert.match(damaged.problems[0]!, /run 2 left out/)
    await writeFile(file, 'not json')
    assert.deepEqual(await readHistory(file), { history: null, problems: [`${file} is not JSON`] })
    assert.deepEqual(await readHistory(join(dir, 'absent.json')), { history: null, problems: [] })
  })
})
