import type { RunTally, ScenarioTally } from '../../records/tally/run-tally.ts'
import { scenarioStatus } from '../../records/tally/run-tally.ts'
import type { VerdictCounts } from '../../records/journal/verdict-counts.ts'
import { passRate, runCounts, scenarioPassRate } from '../../records/tally/run-counts.ts'
import type { Attempt } from '../../records/journal/records.ts'
import type { AttemptFailure, AttemptResult, ScenarioResult, VerdictTotals } from './result-types.ts'

/** A run's tally, per scenario, as run() returns it, each scenario with its attempts in full. */
export function scenarioResults(tally: RunTally, attempts: readonly Attempt[]): ScenarioResult[] {
  const byScenario = new Map<string, AttemptResult[]>()
  for (const a of attempts) byScenario.set(a.scenario, [...(byScenario.get(a.scenario) ?? []), attemptResult(a)])
  return [...tally.scenarios.values()]
    .filter((s) => s.attempts.length > 0)
    .map((s) => ({ ...scenarioResult(s), played: (byScenario.get(s.id) ?? []).sort((x, y) => x.attempt - y.attempt) }))
}

/** An attempt as attempts.jsonl keeps it, in the library's plain types. */
function attemptResult(a: Attempt): AttemptResult {
  return {
    attempt: a.attempt,
    verdict: a.verdict,
    endedBy: a.endedBy ?? null,
    error: a.error,
    startedAt: a.startedAt,
    seconds: a.seconds,
    claims: a.claims.map((c) => ({ claim: c.claim, pass: c.pass, reason: c.reason, ...(c.votes ? { votes: c.votes } : {}) })),
    checks: a.checks.map((c) => ({ kind: c.kind, value: c.value, pass: c.pass, detail: c.detail })),
    dialogue: a.turns.map((turn) => ({
      role: turn.role,
      text: turn.text,
      seconds: turn.seconds,
      tokens: turn.tokens,
      error: turn.error,
      ...(turn.toolCalls ? { toolCalls: turn.toolCalls.map((call) => ({ name: call.name, arguments: call.arguments })) } : {}),
    })),
  }
}

function scenarioResult(s: ScenarioTally): Omit<ScenarioResult, 'played'> {
  return {
    id: s.id,
    ...(s.scenario?.description === undefined ? {} : { description: s.scenario.description }),
    status: scenarioStatus(s),
    ...verdictTotals(s, s.attempts.length, scenarioPassRate({ passed: s.passed, counted: s.passed + s.failed + s.agentErrors })),
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
  return verdictTotals(counts, counts.attempts, passRate(counts.scenarios))
}

function verdictTotals(counts: VerdictCounts, attempts: number, rate: number | null): VerdictTotals {
  const { passed, failed, agentErrors, noVerdicts, userErrors, notDecided } = counts
  return { attempts, passed, failed, agentErrors, noVerdicts, userErrors, notDecided, passRate: rate }
}
