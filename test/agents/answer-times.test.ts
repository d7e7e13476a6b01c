import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { compareTimes, mannWhitney, upperTail } from '../../src/verdict/answer-times.ts'
import { compareRuns } from '../../src/verdict/compare-runs.ts'
import { comparisonMarkdown } from '../../src/views/markdown/compare-markdown.ts'
import type { Turn } from '../../src/records/journal/records.ts'
import { renderCompareTiles } from '../../src/views/compare/compare-tiles.ts'
import { attempt, manifest, scenario } from '../report/small-run.ts'
import { tallyRecord, type RunRecord } from '../../src/records/tally/run-tally.ts'

/**
 * Answer time and time to first token in the compare: slower or faster only beyond noise. (Here
 * with the agent tests because times to first token come from the streaming protocols.)
 */

/** A seeded generator, so the samples are the same on every run. */
function random(seed: number): () => number {
  let state = seed >>> 0
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0
    return state / 2 ** 32
  }
}

/** P(U ≤ u) counted exactly: ways to give the first sample rank sums, over all splits (no ties). */
function exactLowerTail(n1: number, n2: number, u: number): number {
  // ways[k][s]: subsets of size k of the ranks seen so far with rank sum s.
  const n = n1 + n2
  const maxSum = (n * (n + 1)) / 2
  let ways = Array.from({ length: n1 + 1 }, () => new Float64Array(maxSum + 1))
  ways[0]![0] = 1
  for (let rank = 1; rank <= n; rank++) {
    const next = ways.map((row) => Float64Array.from(row))
    for (let k = 1; k <= n1; k++) for (let s = rank; s <= maxSum; s++) next[k]![s]! += ways[k - 1]![s - rank]!
    ways = next
  }
  const offset = (n1 * (n1 + 1)) / 2
  let below = 0
  let total = 0
  ways[n1]!.forEach((count, sum) => {
    total += count
    if (sum - offset <= u) below += count
  })
  return below / total
}

describe('answer times: the test behind slower and faster', () => {
  test('the normal tail matches known quantiles', () => {
    assert.ok(Math.abs(upperTail(1.959963984540054) - 0.025) < 1e-6)
    assert.ok(Math.abs(upperTail(0) - 0.5) < 1e-7)
    assert.ok(Math.abs(upperTail(-1) - 0.8413447460685429) < 1e-6)
  })

  test('Mann–Whitney p-values agree with the exact distribution of U (no ties, 15 and 18 answers)', () => {
    const next = random(7)
    for (const shift of [0, 0.15, 0.4]) {
      const first = Array.from({ length: 15 }, () => next() + shift)
      const second = Array.from({ length: 18 }, () => next())
      const { pLess, pGreater } = mannWhitney(first, second)
      const rankSum = [...first, ...second].sort((a, b) => a - b).reduce((sum, v, i) => sum + (first.includes(v) ? i + 1 : 0), 0)
      const u = rankSum - (15 * 16) / 2
      assert.ok(Math.abs(pLess - exactLowerTail(15, 18, u)) < 0.01, `shift ${shift}: less ${pLess} vs exact ${exactLowerTail(15, 18, u)}`)
      assert.ok(Math.abs(pGreater - (1 - exactLowerTail(15, 18, u - 1))) < 0.01, `shift ${shift}: greater ${pGreater}`)
    }
  })

  test('identical times are never a change', () => {
    assert.deepEqual(mannWhitney([2, 2, 2, 2, 2], [2, 2, 2, 2, 2]), { pGreater: 1, pLess: 1 })
  })

  test('slower and faster need the test and a 10% move of the median; five answers a side at least', () => {
    const next = random(11)
    const times = (n: number, centre: number) => Array.from({ length: n }, () => centre * (0.8 + 0.4 * next()))
    const base = times(40, 2)
    assert.equal(compareTimes(base, times(40, 3)).direction, 'worse')
    assert.equal(compareTimes(base, times(40, 1.2)).direction, 'better')
    const steady = times(600, 2)
    const slightly = steady.map((t) => t * 1.04)
    const change = compareTimes(steady, slightly)
    assert.ok(change.pSlower! < 0.025, 'the test alone would call 4% slower')
    assert.equal(change.direction, 'within-noise', '…but 4% is within what CI machines differ by')
    assert.deepEqual(compareTimes([1, 1, 1, 1], [9, 9, 9, 9, 9]), { direction: 'within-noise', pSlower: null, pFaster: null })
  })
})

describe('answer times in the compare', () => {
  const turns = (seconds: number[], firstToken: number | null): Turn[] =>
    seconds.flatMap((s): Turn[] => [
      { role: 'user', text: 'q', seconds: 0, tokens: null, error: null },
      { role: 'agent', text: 'a', seconds: s, tokens: null, error: null, ...(firstToken === null ? {} : { firstTokenSeconds: firstToken * s }) },
    ])
  const record = (answerSeconds: number, firstToken: number | null, id: string): RunRecord => ({
    manifest: manifest([scenario('s')], { id }),
    attempts: Array.from({ length: 5 }, (_, i) => ({ ...attempt('s', i + 1, 'passed', []), turns: turns([answerSeconds, answerSeconds + 0.1, answerSeconds + 0.2], firstToken) })),
  })

  test('a slower agent is red in the tiles and the comment; the time to first token gets its own row', () => {
    const c = compareRuns(tallyRecord(record(1, 0.2, 'bot/2026-03-01T10-00-00_ab12')), tallyRecord(record(2, 0.2, 'bot/2026-03-02T10-00-00_cd34')), { now: new Date('2026-03-02T12:00:00Z') })
    assert.equal(c.tiles.meanAnswerSeconds.tone, 'worse')
    assert.equal(c.tiles.meanFirstTokenSeconds.tone, 'worse')
    assert.ok(Math.abs(c.tiles.meanFirstTokenSeconds.before! - 0.22) < 1e-9)
    assert.match(comparisonMarkdown(c), /\| Answer time \| 1\.1 s mean · 1\.2 s slowest \| 2\.1 s mean · 2\.2 s slowest \| 🟥 \+1\.0 s · \+1\.0 s \|/)
    assert.match(comparisonMarkdown(c), /\| Time to first token \| 0\.2 s mean \| 0\.4 s mean \| 🟥 \+0\.2 s \|/)
    assert.match(renderCompareTiles(c).value, /Time to first token.*<span class="chg worse">▼ \+0\.2 s <small>slower<\/small>/)
  })

  test('agents that do not stream get no time-to-first-token row', () => {
    const c = compareRuns(tallyRecord(record(1, null, 'bot/2026-03-01T10-00-00_ab12')), tallyRecord(record(1, null, 'bot/2026-03-02T10-00-00_cd34')), { now: new Date('2026-03-02T12:00:00Z') })
    assert.equal(c.tiles.meanAnswerSeconds.tone, 'within-noise')
    assert.equal(c.tiles.meanFirstTokenSeconds.tone, 'neutral')
    assert.doesNotMatch(comparisonMarkdown(c), /first token/)
    assert.doesNotMatch(renderCompareTiles(c).value, /first token/)
  })
})
