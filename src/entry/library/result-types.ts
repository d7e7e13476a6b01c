/**
 * What `run()` returns, as plain types: the package's declarations (dist/types) read them without zod
 * or any of convy-ci's internals.
 */
/**
 * As the report says it: failing, flaky, passing, or, with no attempt passed or failed, why: agent
 * error, no verdict (convy-ci's models failed), user error, not decided. Plain types: dist/types needs no zod.
 */
export type ScenarioStatus = 'failing' | 'flaky' | 'passing' | 'agent_error' | 'no_verdict' | 'user_error' | 'not_decided'

/** How one claim or check did over a scenario's attempts: it held in `held` of `of` decisions. */
export interface Holding {
  held: number
  of: number
}

/** An attempt that did not pass, and why, in words a test failure message can show. */
export interface AttemptFailure {
  attempt: number
  verdict: 'failed' | 'agent_error' | 'no_verdict' | 'user_error' | 'not_decided'
  /** The claims and checks that did not hold, with their reasons, or the error. */
  why: string[]
}

/** Attempts by how they ended, a scenario's or the whole run's. */
export interface VerdictTotals {
  attempts: number
  passed: number
  failed: number
  agentErrors: number
  noVerdicts: number
  /** Failed by the simulated user's own mistake (its review said so): neither passed nor failed. */
  userErrors: number
  /** Nothing could decide them (no check, the judge not asked): neither passed nor failed. */
  notDecided: number
  /** passed / (passed + failed); null when no attempt got a verdict. */
  passRate: number | null
}

export interface ScenarioResult extends VerdictTotals {
  id: string
  description?: string
  status: ScenarioStatus
  claims: ({ text: string } & Holding)[]
  checks: ({ kind: string; value: string } & Holding)[]
  failures: AttemptFailure[]
}

/** What `run()` returns: plain data, no classes, safe to log or snapshot. Its totals are over every scenario. */
export interface RunResult extends VerdictTotals {
  agent: string
  /** The run's id, as `convy-ci resume` and `compare` take it. */
  id: string
  /** The run folder and its report; null when the run was not written (`write: false`). */
  dir: string | null
  report: string | null
  /** The run was stopped (signal, budget) before every attempt was played. */
  complete: boolean
  /** What `convy-ci run` would exit with: 0 every attempt finished, 1 an error or the budget, 130 interrupted. */
  exitCode: number
  scenarios: ScenarioResult[]
}
