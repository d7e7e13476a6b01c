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
    userErrors: s.userErrors,
    notDecided: s.notDecided,
    passRate: decided === 0 ? null : s.passed / decided,
    claims: [...s.claims.entries()].map(([text, h]) => ({ text, held: h.held, of: h.decided })),
    checks: [...s.checks.values()].map((c) => ({ kind: c.kind, value: c.value, held: c.held, of: c.decided })),
    failures: s.attempts
      .filter((a) => a.verdict !== 'passed')
      .map((a) => ({
        attempt: a.attempt,
        verdict: a.verdict as AttemptFailure['verdict'],
        why: whyNotPassed(a),
      })),
  }
}

function whyNotPassed(a: ScenarioTally['attempts'][number]): string[] {
  if (a.error !== null) return [a.error]
  const broken = [...a.checks.filter((c) => !c.pass).map((c) => `${c.kind} ${c.value}: ${c.detail}`), ...a.claims.filter((c) => !c.pass).map((c) => `${c.claim}: ${c.reason}`)]
  if (a.verdict === 'user_error' && a.review) return [`the simulated user's own mistake: ${a.review.reason}`, ...broken]
  if (a.verdict === 'not_decided') return ['no check and no claim was decided', ...broken]
  return broken
}

type Count = 'attempts' | 'passed' | 'failed' | 'agentErrors' | 'noVerdicts' | 'userErrors' | 'notDecided'

export function totals(scenarios: readonly ScenarioResult[]): Pick<RunResult, Count | 'passRate'> {
  const sum = (key: Count) => scenarios.reduce((n, s) => n + s[key], 0)
  const passed = sum('passed')
  const decided = passed + sum('failed')
  const counts = { attempts: sum('attempts'), passed, failed: sum('failed'), agentErrors: sum('agentErrors'), noVerdicts: sum('noVerdicts') }
  return { ...counts, userErrors: sum('userErrors'), notDecided: sum('notDecided'), passRate: decided === 0 ? null : passed / decided }
}
