import type { Attempt, ToolCall } from '../../src/records/journal/records.ts'
import { tallyRecord } from '../../src/records/tally/run-tally.ts'
import { compareRuns } from '../../src/verdict/compare-runs.ts'
import { syntheticRun } from '../fakes/synthetic-run.ts'

/**
 * A pull request that dropped one tool call, as runs: `refund-late-order` looked the order up in 10
 * of 10 attempts before and in none after, and `cancel-subscription` answers three times slower
 * (tool-use-comment.test.ts, and the comment in a browser in browser/tool-use-comment.ts).
 */
const MIX = [0.98, 0.98, 0.85, 0.98, 0.55, 0.98, 0.85, 0.98, 0.85, 0.55]
export const HOSTILE = '<img src=x onerror="window.__pwned=1">'
export const SLOWED = 'cancel-subscription'

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

export function runs(tool = 'get_order') {
  const lookup: ToolCall = { name: tool, arguments: { order_id: '88231' }, result: { status: 'delayed', days_late: 6 } }
  const refund: ToolCall = { name: 'issue_refund', arguments: { order_id: '88231', reason: 'late' }, result: { refund_id: 'R-5521' } }
  const at = (seed: number, day: string) => syntheticRun({ seed, scenarios: 10, k: 10, startedAt: new Date(day), passProbability: (i) => MIX[i % 10]! })
  return {
    before: withCalls(at(1, '2026-11-20T09:30:00Z'), 'refund-late-order', [lookup, refund]),
    // The same pull request made another scenario's answers three times slower.
    after: slowedDown(withCalls(at(2, '2026-11-21T09:30:00Z'), 'refund-late-order', [refund]), SLOWED, 3),
  }
}

export function comparisonOf(r: ReturnType<typeof runs>) {
  return compareRuns(tallyRecord(r.before), tallyRecord(r.after), { now: new Date('2026-11-21T10:00:00Z') })
}
