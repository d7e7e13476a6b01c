import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import type { Attempt } from '../../src/records/journal/records.ts'
import { tallyRecord, type RunRecord } from '../../src/records/tally/run-tally.ts'
import { compareRuns } from '../../src/verdict/compare-runs.ts'
import { baselineHealth } from '../../src/verdict/baseline-health.ts'
import { decideGate, type GateSettings } from '../../src/verdict/decide-gate.ts'
import { renderComparePage, type ComparePageOptions } from '../../src/views/compare/compare-page.ts'
import { attempt, manifest, scenario } from '../compare/run-builder.ts'
import { assertNoInjectedMarkup } from './markup-check.ts'

/**
 * The compare page says what the gate decided when the command was asked to gate: the same decision
 * (decide-gate.ts) `compare` exits by, in one line under the verdict. Scenario ids come from files:
 * a gate's reason naming one is escaped.
 */
const NOW = { now: new Date('2026-03-02T12:00:00Z') }
const HOSTILE = 'refund<img src=x onerror=alert(1)>'

/** Three scenarios × 5 passing attempts; `slow` answers `factor` × slower in the after run. */
function runs(factor: number): { before: RunRecord; after: RunRecord } {
  const ids = ['order', 'billing', HOSTILE]
  const make = (id: string, times: (s: number, n: number) => number): RunRecord => ({
    manifest: manifest({ id, scenarios: ids.map((sid) => scenario(sid)) }),
    attempts: ids.flatMap((sid, s) =>
      Array.from({ length: 5 }, (_, i): Attempt => {
        const base = attempt(sid, i + 1, 'passed')
        return { ...base, turns: [base.turns[0]!, { ...base.turns[1]!, seconds: times(s, i + 1) }] }
      }),
    ),
  })
  const typical = (s: number, n: number) => 1 + s / 10 + n / 50
  return { before: make('bot/2026-03-01T10-00-00_ab12', typical), after: make('bot/2026-03-02T10-00-00_cd34', (s, n) => (s === 2 ? factor : 1) * typical(s, n)) }
}

function pageWithGate(factor: number, settings: GateSettings | null, asked: string): string {
  const r = runs(factor)
  const c = compareRuns(tallyRecord(r.before), tallyRecord(r.after), NOW)
  const options: ComparePageOptions = settings
    ? { gate: (comparison, tallies) => ({ asked, result: decideGate({ comparison }, { ...settings, health: baselineHealth(tallies.before, tallies.after) }).result }) }
    : {}
  return renderComparePage(c, r, options)
}

const gateLine = (page: string) => /<p class="card gate g-(\w+)" data-gate="\w+"><b>Gate \(([^)]*)\): ([^<]*)<\/b> ([^<]*)<\/p>/.exec(page)

describe('the compare page: the gate line', () => {
  test('a scenario four times slower past fail-on-slower 200 (the whole run, 1.6 ×, is not): the line says fail and why, the id escaped', () => {
    const page = pageWithGate(4, { failOn: 'worse', slowerPercent: 200 }, 'fail-on: worse, fail-on-slower 200%')
    const line = gateLine(page)
    assert.ok(line, 'a gate line')
    assert.deepEqual(line.slice(1, 4), ['fail', 'fail-on: worse, fail-on-slower 200%', 'fail.'])
    assert.equal(line[4], 'Slower past 200% (fail-on-slower): refund&lt;img src=x onerror=alert(1)&gt; 4.0 ×.')
    assertNoInjectedMarkup(page)
  })

  test('the same runs under a limit they do not reach pass, and say so', () => {
    const line = gateLine(pageWithGate(4, { failOn: 'worse', slowerPercent: 1000 }, 'fail-on: worse, fail-on-slower 1000%'))
    assert.deepEqual(line?.slice(1, 4), ['pass', 'fail-on: worse, fail-on-slower 1000%', 'pass.'])
  })

  test('not asked to gate: no line', () => {
    const page = pageWithGate(4, null, '')
    assert.equal(gateLine(page), null)
    assert.doesNotMatch(page, /data-gate=/)
  })
})
