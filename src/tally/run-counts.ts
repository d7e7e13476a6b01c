import type { RunTally } from './run-tally.ts'

/** A run's verdicts added up, overall and per scenario played, as the report counts them. */
export interface RunCounts {
  attempts: number
  passed: number
  failed: number
  /** Attempts with a verdict: passed or failed. */
  judged: number
  agentErrors: number
  noVerdicts: number
  /** Failed by the simulated user's own mistake: neither passed nor failed. */
  userErrors: number
  /** Nothing could decide them (no check, the judge not asked): neither passed nor failed. */
  notDecided: number
  scenarios: { id: string; passed: number; failed: number; judged: number; attempts: number; agentErrors: number; noVerdicts: number; userErrors: number; notDecided: number }[]
}

export function runCounts(tally: RunTally): RunCounts {
  const scenarios = [...tally.scenarios.values()]
    .filter((s) => s.attempts.length > 0)
    .map((s) => ({ id: s.id, passed: s.passed, failed: s.failed, judged: s.passed + s.failed, attempts: s.attempts.length, agentErrors: s.agentErrors, noVerdicts: s.noVerdicts, userErrors: s.userErrors, notDecided: s.notDecided }))
  const sum = (key: 'attempts' | 'passed' | 'failed' | 'judged' | 'agentErrors' | 'noVerdicts' | 'userErrors' | 'notDecided') => scenarios.reduce((n, s) => n + s[key], 0)
  return {
    attempts: sum('attempts'),
    passed: sum('passed'),
    failed: sum('failed'),
    judged: sum('judged'),
    agentErrors: sum('agentErrors'),
    noVerdicts: sum('noVerdicts'),
    userErrors: sum('userErrors'),
    notDecided: sum('notDecided'),
    scenarios,
  }
}

/** Passed out of attempts with a verdict; null when none got one. */
export function passRate(counts: Pick<RunCounts, 'passed' | 'judged'>): number | null {
  return counts.judged ? counts.passed / counts.judged : null
}
