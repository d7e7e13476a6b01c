import type { RunTally, ScenarioTally } from '../../records/tally/run-tally.ts'
import { scenarioStatus } from '../../records/tally/run-tally.ts'
import type { VerdictCounts } from '../../records/journal/attempt-facts.ts'
import { passRate, runCounts } from '../../records/tally/run-counts.ts'
import type { AttemptFailure, ScenarioResult, VerdictTotals } from './result-types.ts'

/** A run's tally, per scenario, as run() returns it. */
export function scenarioResults(tally: RunTally): ScenarioResult[] {
  return [...tally.scenarios.values()].filter((s) => s.attempts.length > 0).map(scenarioResult)
}

function scenarioResult(s: ScenarioTally): ScenarioResult {
  return {
    id: s.id,
    ...(s.scenario?.description === undefined ? {} : { description: s.scenario.description }),
    status: scenarioStatus(s),
    ...verdictTotals(s, s.attempts.length),
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

/** The whole run's totals, from the same counts the report reads. */
export function totals(tally: RunTally): VerdictTotals {
  const counts = runCounts(tally)
  return verdictTotals(counts, counts.attempts)
}

function verdictTotals(counts: VerdictCounts, attempts: number): VerdictTotals {
  const { passed, failed, agentErrors, noVerdicts, userErrors, notDecided } = counts
  return { attempts, passed, failed, agentErrors, noVerdicts, userErrors, notDecided, passRate: passRate({ passed, judged: passed + failed }) }
}
