import type { History } from './trend.ts'

/**
 * The attempts each scenario gets in the default branch's next run, from that branch's history
 * (issue 39 item 2; docs/statistics.md "Attempts from the trend"). That run is the baseline of every
 * pull request until the next merge, so it plays `baseline-attempts` (10) per scenario; where the
 * history shows a scenario stable for many runs it plays fewer, where it shows it flaky more, and a
 * scenario without enough history plays the plain number. Never fewer than the pull request's
 * `attempts`. Pure: the action, `run --attempts-by-history` and bench/baseline-attempts.ts all plan
 * through `attemptsByHistory`. The numbers are chosen by that bench, not by taste.
 */
export const ATTEMPTS_BY_HISTORY_RULE = 'stable-flaky-v1'

export interface HistoryRuleParameters {
  /** A scenario failed no decided attempt in at least this many of the newest runs in a row: stable. */
  stableRuns: number
  /** The attempts a stable scenario plays: never fewer than the pull request's attempts, never more than the plain number. */
  stableAttempts: number
  /** A scenario failed a decided attempt in at least `flakyRuns` of the newest `window` runs: flaky. */
  flakyRuns: number
  window: number
  /** A flaky scenario plays this many times the plain number (rounded up): 15 at baseline-attempts 10. */
  flakyFactor: number
}

/**
 * The rule's numbers, chosen with bench/baseline-attempts.ts (docs/statistics.md): a stable scenario's
 * fewer attempts cost the gate the power to see it collapse (the collapse rule needs 4 decided
 * baseline attempts, and the noise takes about one in eight): at 6, 2.6 points of collapses escape
 * against fixed 10, at 7, 0.4. A scenario at 0.98 looks stable over 5 runs 4 times in 10 and then
 * loses power on a drop to 0.5 (−1.4 points); over 8 runs less often (−0.4) at the same cost. Without
 * the flaky scenarios' 15 (1.5 × 10) the same drop loses 2.5 points: the extra attempts pay for the savings.
 */
export const HISTORY_RULE_PARAMETERS: HistoryRuleParameters = { stableRuns: 8, stableAttempts: 7, flakyRuns: 2, window: 5, flakyFactor: 1.5 }

export type HistoryReason = 'stable' | 'flaky' | 'plain'

export interface ScenarioPlan {
  attempts: number
  reason: HistoryReason
  /** stable: the newest runs in a row it failed no decided attempt in; flaky: the runs of the window it failed in; plain: runs with a verdict for it. */
  runs: number
}

/** The per-run figures the rule reads of a scenario: its decided attempts and how many passed. */
interface Decided {
  passed: number
  judged: number
}

/**
 * Each scenario's attempts in the agent's next baseline run. `history`: the default branch's runs
 * (any agent; others are left out), newest first or not. `plain`: baseline-attempts; `floor`: the
 * pull request's attempts, which no scenario goes under.
 */
export function attemptsByHistory(
  history: History | null,
  agent: string,
  scenarioIds: readonly string[],
  numbers: { plain: number; floor: number },
  parameters: HistoryRuleParameters = HISTORY_RULE_PARAMETERS,
): Map<string, ScenarioPlan> {
  const runs = newestRunsOf(history, agent)
  const plans = new Map<string, ScenarioPlan>()
  for (const id of scenarioIds) {
    const points = runs.flatMap((run) => {
      const s = run.get(id)
      return s && s.judged > 0 ? [s] : []
    })
    plans.set(id, planOf(points, numbers, parameters))
  }
  return plans
}

/** One scenario's plan from its decided attempts in each run, newest run first. */
export function planOf(points: readonly Decided[], numbers: { plain: number; floor: number }, p: HistoryRuleParameters = HISTORY_RULE_PARAMETERS): ScenarioPlan {
  const failedIn = (point: Decided) => point.passed < point.judged
  const streak = points.findIndex(failedIn)
  const stableFor = streak === -1 ? points.length : streak
  if (stableFor >= p.stableRuns) return { attempts: Math.min(numbers.plain, Math.max(numbers.floor, p.stableAttempts)), reason: 'stable', runs: stableFor }
  const window = points.slice(0, p.window)
  const flakyIn = window.filter(failedIn).length
  // A scenario that never passes in the window is not flaky: it is broken, and more attempts tell nothing new.
  const passedSome = window.some((point) => point.passed > 0)
  if (window.length >= p.window && flakyIn >= p.flakyRuns && passedSome) return { attempts: Math.ceil(numbers.plain * p.flakyFactor), reason: 'flaky', runs: flakyIn }
  return { attempts: numbers.plain, reason: 'plain', runs: points.length }
}

/** "stable in 8 runs: 8", "flaky (failed in 3 of 5 runs): 15", "10 (2 runs of history)". */
export function planWords(plan: ScenarioPlan, window: number = HISTORY_RULE_PARAMETERS.window): string {
  switch (plan.reason) {
    case 'stable':
      return `stable in ${plan.runs} runs: ${plan.attempts}`
    case 'flaky':
      return `flaky (failed in ${plan.runs} of ${window} runs): ${plan.attempts}`
    case 'plain':
      return `${plan.attempts} (${plan.runs} run${plan.runs === 1 ? '' : 's'} of history)`
  }
}

/** How many of the agent's runs the history holds, each once: what the plan is drawn from. */
export function historyRunCount(history: History | null, agent: string): number {
  return newestRunsOf(history, agent).length
}

/** The agent's runs in the history, newest first, each once: scenario id → decided attempts. */
function newestRunsOf(history: History | null, agent: string): Map<string, Decided>[] {
  if (!history) return []
  const seen = new Set<string>()
  return history.entries
    .filter((e) => e.summary.agent === agent)
    .sort((a, b) => b.summary.startedAt.localeCompare(a.summary.startedAt))
    .filter((e) => !seen.has(e.summary.run) && seen.add(e.summary.run))
    .map((e) => new Map(e.summary.scenarios.map((s) => [s.id, { passed: s.passed, judged: s.judged }])))
}
