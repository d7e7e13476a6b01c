import { VERDICT_COUNT_KEYS, emptyVerdictCounts, type VerdictCounts } from '../journal/attempt-facts.ts'
import type { RunTally } from './run-tally.ts'

/** One scenario's verdicts, as the report counts them. */
export interface ScenarioCounts extends VerdictCounts {
  id: string
  attempts: number
  /** Attempts with a verdict: passed or failed. */
  judged: number
}

/** A run's verdicts added up, overall and per scenario played, as the report counts them. */
export interface RunCounts extends VerdictCounts {
  attempts: number
  /** Attempts with a verdict: passed or failed. */
  judged: number
  scenarios: ScenarioCounts[]
}

export function runCounts(tally: RunTally): RunCounts {
  const scenarios: ScenarioCounts[] = []
  const all: RunCounts = { ...emptyVerdictCounts(), attempts: 0, judged: 0, scenarios }
  for (const s of tally.scenarios.values()) {
    if (s.attempts.length === 0) continue
    const counts: ScenarioCounts = { id: s.id, attempts: s.attempts.length, judged: s.passed + s.failed, ...emptyVerdictCounts() }
    for (const key of VERDICT_COUNT_KEYS) {
      counts[key] = s[key]
      all[key] += s[key]
    }
    all.attempts += counts.attempts
    all.judged += counts.judged
    scenarios.push(counts)
  }
  return all
}

/** Passed out of attempts with a verdict; null when none got one. */
export function passRate(counts: Pick<RunCounts, 'passed' | 'judged'>): number | null {
  return counts.judged ? counts.passed / counts.judged : null
}
