import type { RunRecord } from '../compare/comparison.ts'
import { scenarioSide, tallyRun } from '../compare/tally.ts'

/** A run's verdicts added up, overall and per scenario, as the report counts them. */
export interface RunCounts {
  attempts: number
  passed: number
  /** Attempts with a verdict: passed or failed. */
  judged: number
  agentErrors: number
  noVerdicts: number
  scenarios: { id: string; passed: number; judged: number; attempts: number }[]
}

export function countRun(record: RunRecord): RunCounts {
  const scenarios = [...tallyRun(record).scenarios.values()].map((tally) => ({ id: tally.scenario.id, ...scenarioSide(tally) }))
  const sum = (key: 'attempts' | 'passed' | 'judged' | 'agentErrors' | 'noVerdicts') => scenarios.reduce((n, s) => n + s[key], 0)
  return {
    attempts: sum('attempts'),
    passed: sum('passed'),
    judged: sum('judged'),
    agentErrors: sum('agentErrors'),
    noVerdicts: sum('noVerdicts'),
    scenarios: scenarios.map(({ id, passed, judged, attempts }) => ({ id, passed, judged, attempts })).filter((s) => s.attempts > 0),
  }
}

export function passRate(counts: RunCounts): number | null {
  return counts.judged ? counts.passed / counts.judged : null
}
