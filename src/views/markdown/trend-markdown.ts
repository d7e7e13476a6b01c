import type { ComparedScenario } from '../../verdict/comparison.ts'
import type { Trend } from '../../records/tally/trend.ts'
import { branchName, movedTrendWords } from '../page/trend-view.ts'
import { neutralise } from './neutralise.ts'

/**
 * The default branch's trend in the comment: one line, in the "What moved" cell of a Worse or Better
 * scenario only ("main: 10 runs at 100%, now 0/5", or "flaky on main: 60–100% over 10 runs, now 2/5"),
 * so a reviewer sees at once whether the pull request shook it or it was always shaky. Nothing for
 * scenarios that did not move: the comment stays short.
 */
export function trendLine(trend: Trend | null | undefined, s: ComparedScenario): string | null {
  const t = trend?.scenarios.get(s.id)
  if (!trend || !t) return null
  const now = s.after.attempts > 0 ? { passed: s.after.passed, judged: s.after.judged } : null
  return movedTrendWords(t, neutralise(branchName(trend), 60), now)
}

/** The row with the trend line added to its last cell (What moved). */
export function withTrendLine(row: string[], line: string | null): string[] {
  if (line === null || row.length === 0) return row
  const last = row.at(-1)!
  return [...row.slice(0, -1), last === '–' || last === '' ? `_${line}_` : `${last}<br>_${line}_`]
}
