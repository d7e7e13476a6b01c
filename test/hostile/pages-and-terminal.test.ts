import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { tallyRecord, type RunRecord } from '../../src/records/tally/run-tally.ts'
import { compareRuns } from '../../src/verdict/compare-runs.ts'
import type { Turn } from '../../src/records/journal/records.ts'
import { comparisonMarkdown } from '../../src/views/markdown/compare-markdown.ts'
import { renderCompareTiles } from '../../src/views/compare/compare-tiles.ts'
import { escapeHtml, jsonForScript } from '../../src/views/page/html.ts'
import { forTerminal } from '../../src/base/shared/invisible.ts'
import { attempt, manifest, scenario } from '../report/small-run.ts'

describe('bidirectional and control characters', () => {
  const hostile = 'invoice\u202Eexe.txt\u0007 done\u001b[2J\r\nnext\u2066line'

  test('pages drop bidirectional controls and show other controls as U+FFFD, in markup and in the page data', () => {
    assert.equal(escapeHtml(hostile), 'invoiceexe.txt\uFFFD done\uFFFD[2J\r\nnextline')
    const data = JSON.parse(jsonForScript({ text: hostile })) as { text: string }
    assert.equal(data.text, 'invoiceexe.txt\uFFFD done\uFFFD[2J\r\nnextline')
  })

  test('the terminal gets them escaped, line feeds kept', () => {
    assert.equal(forTerminal(hostile), 'invoice\\u202eexe.txt\\u0007 done\\u001b[2J\\u000d\nnext\\u2066line')
  })
})

describe('a change of answer time that reads 0 ms', () => {
  const record = (seconds: number, id: string): RunRecord => ({
    manifest: manifest([scenario('s')], { id }),
    attempts: Array.from({ length: 5 }, (_, i) => ({
      ...attempt('s', i + 1, 'passed', []),
      turns: [0, 1, 2].flatMap((): Turn[] => [
        { role: 'user', text: 'q', seconds: 0, tokens: null, error: null },
        { role: 'agent', text: 'a', seconds, tokens: null, error: null },
      ]),
    })),
  })

  test('is grey, not red, even when the medians moved (0.1 ms → 0.4 ms)', () => {
    const c = compareRuns(tallyRecord(record(0.0001, 'bot/2026-03-01T10-00-00_ab12')), tallyRecord(record(0.0004, 'bot/2026-03-02T10-00-00_cd34')), { now: new Date('2026-03-02T12:00:00Z') })
    assert.equal(c.tiles.medianAnswerSeconds.tone, 'within-noise')
    assert.match(renderCompareTiles(c).value, /Answer time.*<span class="chg within-noise">~ 0 ms/)
    assert.doesNotMatch(comparisonMarkdown(c), /🟥/)
  })

  test('a small change that is real reads in milliseconds, not "+0.0 s"', () => {
    // 10 ms → 90 ms: past the 50 ms a change must reach to be told (verdict/speed.ts), under 0.1 s.
    const c = compareRuns(tallyRecord(record(0.01, 'bot/2026-03-01T10-00-00_ab12')), tallyRecord(record(0.09, 'bot/2026-03-02T10-00-00_cd34')), { now: new Date('2026-03-02T12:00:00Z') })
    assert.equal(c.tiles.medianAnswerSeconds.tone, 'worse')
    assert.match(renderCompareTiles(c).value, /Answer time.*▼ \+80 ms <small>slower/)
    assert.doesNotMatch(comparisonMarkdown(c), /\+0\.0 s/)
  })
})
