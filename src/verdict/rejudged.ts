import type { Comparison } from './comparison.ts'

/**
 * A comparison made again after the scenarios that decided it were judged several times (the
 * action's `rejudge`): a scenario that was Worse (or Better) on the first judgements and is not any
 * more is labelled judge-unstable too — the flag came from the judge, not the agent (docs/statistics.md
 * §4: "if the flag disappears … label the scenario judge-unstable"). The verdict follows. When both
 * sides were judged again alike, that is evidence: the label stays as a note and the scenario is
 * `settledByRejudge`; with one side only, the drop stays unexplained (evidence missing for the gate).
 */
export function afterRejudging(first: Comparison, again: Comparison, options: { bothSides: boolean }): Comparison {
  const was = new Map<string, 'worse' | 'better'>([...first.scenarios.worse.map((s) => [s.id, 'worse'] as const), ...first.scenarios.better.map((s) => [s.id, 'better'] as const)])
  const same = again.scenarios.same.map((s) =>
    s.judgeUnstable === null && was.has(s.id) ? { ...s, judgeUnstable: was.get(s.id)!, ...(options.bothSides ? { settledByRejudge: true } : {}) } : s,
  )
  return { ...again, scenarios: { ...again.scenarios, same } }
}
