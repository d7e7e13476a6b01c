// Apart from run-tally.ts so the package's declarations (entry/library/result-types.ts) take the type
// without the records behind a tally.
import type { VerdictCounts } from '../journal/verdict-counts.ts'

/**
 * As the report says it: failing, flaky, passing, or, with no attempt passed or failed, why: agent
 * error, no verdict (convy-ci's models failed), user error, not decided.
 */
export type ScenarioStatus = 'failing' | 'flaky' | 'passing' | 'agent_error' | 'no_verdict' | 'user_error' | 'not_decided'

/** The counts a status is decided on. */
export type StatusCounts = Pick<VerdictCounts, 'passed' | 'failed' | 'agentErrors' | 'noVerdicts' | 'userErrors'>

/**
 * Passed and failed attempts decide a scenario's status. With none, the status says why, by the one
 * word for each reason (views/page/verdict-words.ts): the agent failed before convy-ci's models, a
 * model before the simulated user's mistakes, and those before attempts that asked for nothing.
 */
export function scenarioStatus(c: StatusCounts): ScenarioStatus {
  if (c.passed + c.failed === 0) {
    if (c.agentErrors) return 'agent_error'
    if (c.noVerdicts) return 'no_verdict'
    if (c.userErrors) return 'user_error'
    return 'not_decided'
  }
  if (c.failed === 0) return 'passing'
  if (c.passed === 0) return 'failing'
  return 'flaky'
}
