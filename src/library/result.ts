import type { RunTally, ScenarioTally } from '../tally/run-tally.ts'
import { scenarioStatus } from '../tally/run-tally.ts'
import type { AttemptFailure, RunResult, ScenarioResult } from './result-types.ts'

/** A run's tally, per scenario, as run() returns it. */
export function scenarioResults(tally: RunTally): ScenarioResult[] {
  return [...tally.scenarios.values()].filter((s) => s.attempts.length > 0).map(scenarioResult)
}

function scenarioResult(s: ScenarioTally): ScenarioResult {
  const decided = s.passed + s.failed
  return {
    id: s.id,
    ...(s.scenario?.description === undefined ? {} : { description: s.scenario.description }),
    status: scenarioStatus(s.passed, s.failed),
    attempts: s.attempts.length,
    passed: s.passed,
    failed: s.failed,
    agentErrors: s.agentErrors,
    noVerdicts: s.noVerdicts,
    passRate: decided === 0 ? null : s.passed / decided,
    claims: [...s.claims.entries()].map(([text, h]) => ({ text, held: h.held, of: h.decided })),
    checks: [...s.checks.values()].map((c) => ({ kind: c.kind, value: c.value, held: c.held, of: c.decided })),
    failures: s.attempts
      .filter((a) => a.verdict !== 'passed')
      .map((a) => ({
        attempt: a.attempt,
        verdict: a.verdict as AttemptFailure['verdict'],
        why:
          a.error !== null
            ? [a.error]
            : [...a.checks.filter((c) => !c.pass).map((c) => `${c.kind} ${c.value}: ${c.detail}`), ...a.claims.filter((c) => !c.pass).map((c) => `${c.claim}: ${c.reason}`)],
      })),
  }
}

export function totals(scenarios: readonly ScenarioResult[]): Pick<RunResult, 'attempts' | 'passed' | 'failed' | 'agentErrors' | 'noVerdicts' | 'passRate'> {
  const sum = (key: 'attempts' | 'passed' | 'failed' | 'agentErrors' | 'noVerdicts') => scenarios.reduce((n, s) => n + s[key], 0)
  const passed = sum('passed')
  const decided = passed + sum('failed')
  return { attempts: sum('attempts'), passed, failed: sum('failed'), agentErrors: sum('agentErrors'), noVerdicts: sum('noVerdicts'), passRate: decided === 0 ? null : passed / decided }
}
