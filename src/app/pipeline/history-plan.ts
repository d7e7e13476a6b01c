import { join } from 'node:path'
import type { AdaptiveRecord, AttemptsByHistorySettings } from '../../records/journal/adaptive-record.ts'
import { ATTEMPTS_BY_HISTORY_RULE, HISTORY_RULE_PARAMETERS, attemptsByHistory, historyRunCount } from '../../records/tally/attempts-by-history.ts'
import { HISTORY_FILE, readHistory, type History } from '../../records/tally/trend.ts'

/**
 * A baseline run's attempts per scenario planned from the default branch's history (issue 39 item 2;
 * the rule: records/tally/attempts-by-history.ts): what run.json records of it — the rule and its
 * numbers in settings.attemptsByHistory, each scenario's attempts and why in `adaptive` — and a line
 * for the log.
 */
export interface HistoryPlan {
  settings: AttemptsByHistorySettings
  record: AdaptiveRecord
  /** "20 scenarios from 8 runs of history: 14 stable at 7, 3 flaky at 15, 3 at 10". */
  summary: string
}

/** The plan, or null without a history of the agent (every scenario then plays `plain`). */
export function historyPlan(history: History | null, agent: string, scenarioIds: readonly string[], numbers: { plain: number; floor: number }): HistoryPlan | null {
  const runs = historyRunCount(history, agent)
  if (runs === 0) return null
  const plans = attemptsByHistory(history, agent, scenarioIds, numbers)
  const record: AdaptiveRecord = {
    scenarios: Object.fromEntries([...plans].map(([id, plan]) => [id, { planned: plan.attempts, stopped: null, history: { reason: plan.reason, runs: plan.runs } }])),
  }
  const ceiling = Math.max(numbers.plain, ...[...plans.values()].map((p) => p.attempts))
  const groups = (['stable', 'flaky', 'plain'] as const).flatMap((reason) => {
    const of = [...plans.values()].filter((p) => p.reason === reason)
    if (of.length === 0) return []
    const attempts = [...new Set(of.map((p) => p.attempts))].join('/')
    return [`${of.length} ${reason === 'plain' ? 'without enough history' : reason} at ${attempts}`]
  })
  return {
    settings: { rule: ATTEMPTS_BY_HISTORY_RULE, runs, ...HISTORY_RULE_PARAMETERS, ceiling },
    record,
    summary: `attempts from ${runs} run${runs === 1 ? '' : 's'} of history: ${groups.join(', ')}`,
  }
}

/**
 * The history `convy-ci baseline --history N` (or the action) left beside the agent's runs,
 * results/<agent>/history.json; null when there is none. A file that cannot be read is a problem
 * said to the caller, never a crash: the run then plays its plain attempts.
 */
export async function historyBesideRuns(resultsDir: string, agent: string): Promise<{ history: History | null; problems: string[]; file: string }> {
  const file = join(resultsDir, agent, HISTORY_FILE)
  return { ...(await readHistory(file)), file }
}
