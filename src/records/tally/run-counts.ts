import { VERDICT_COUNT_KEYS, emptyVerdictCounts, type VerdictCounts } from '../journal/verdict-counts.ts'
import type { RunTally } from './run-tally.ts'

/** One scenario's verdicts, as the report counts them. */
export interface ScenarioCounts extends VerdictCounts {
  id: string
  attempts: number
  /** Attempts with a verdict: passed or failed. */
  judged: number
  /** The pass rate's denominator: passed, failed, or ended by an agent error (an agent that broke did not pass). */
  counted: number
}

/** A run's verdicts added up, overall and per scenario played, as the report counts them. */
export interface RunCounts extends VerdictCounts {
  attempts: number
  /** Attempts with a verdict: passed or failed. */
  judged: number
  /** The pass rate's denominator: passed, failed, or ended by an agent error. */
  counted: number
  scenarios: ScenarioCounts[]
}

export function runCounts(tally: RunTally): RunCounts {
  const scenarios: ScenarioCounts[] = []
  const all: RunCounts = { ...emptyVerdictCounts(), attempts: 0, judged: 0, counted: 0, scenarios }
  for (const s of tally.scenarios.values()) {
    if (s.attempts.length === 0) continue
    const counts: ScenarioCounts = { id: s.id, attempts: s.attempts.length, judged: s.passed + s.failed, counted: s.passed + s.failed + s.agentErrors, ...emptyVerdictCounts() }
    for (const key of VERDICT_COUNT_KEYS) {
      counts[key] = s[key]
      all[key] += s[key]
    }
    all.attempts += counts.attempts
    all.judged += counts.judged
    all.counted += counts.counted
    scenarios.push(counts)
  }
  return all
}

/** What a pass rate is computed from: passed, out of the attempts that count. */
export interface PassCounts {
  passed: number
  counted: number
}

/**
 * A scenario's pass rate: passed out of the attempts that speak for the agent — passed, failed, and
 * those it ended with an error, since an agent that broke did not pass. Attempts convy-ci's own
 * models could not decide, the simulated user's own mistakes and the undecided are left out, and
 * every surface shows how many beside it. Null when no attempt counts.
 */
export function scenarioPassRate(counts: PassCounts): number | null {
  return counts.counted ? counts.passed / counts.counted : null
}

/**
 * A run's pass rate, defined here once for every surface (terminal, report, compare page, comment,
 * summary, outputs, library): the mean of its scenarios' pass rates, each scenario weighing the same.
 * When every scenario counts as many attempts, it is passed / counted over the run; when attempts
 * were left out unevenly, pooling would let a scenario that lost its attempts tip the total the
 * wrong way (Simpson's paradox, docs/statistics.md), and the words say "mean over scenarios".
 */
export function passRate(scenarios: readonly PassCounts[]): number | null {
  const rates = scenarios.map(scenarioPassRate).filter((rate): rate is number => rate !== null)
  return rates.length === 0 ? null : rates.reduce((sum, rate) => sum + rate, 0) / rates.length
}
