import type { Counts } from '../../base/stats/counts.ts'
import { wilsonInterval, type Interval } from '../../base/stats/intervals.ts'
import { passHatK, type KEstimate } from '../../base/stats/reliability.ts'
import { passRate, type PassCounts } from '../../records/tally/run-counts.ts'
import { emptyVerdictCounts, VERDICT_COUNT_KEYS, type VerdictCounts } from '../../records/journal/verdict-counts.ts'
import { answerSecondsOf, firstTokenSecondsOf } from '../../records/tally/answer-time.ts'
import { scenarioStatus, type AttemptDigest, type RunTally, type ScenarioStatus, type SlowestAnswer } from '../../records/tally/run-tally.ts'
import { expectedAttempts } from '../../records/journal/adaptive-record.ts'

/** The numbers behind a run's tiles and its reliability line, derived from a finished tally. */
export interface RunFigures extends VerdictCounts {
  attempts: number
  /** Attempts expected from run.json: scenarios × k. */
  expectedAttempts: number
  /** The pass rate (records/tally/run-counts.ts): passed / counted; null when nothing counts. */
  passRate: number | null
  /** Passed, failed or ended by an agent error: the pass rate's denominator. */
  counted: number
  passInterval: Interval | null
  scenarios: number
  statusCounts: Record<ScenarioStatus, number>
  /** The median over attempts of their answer time, as every surface gives it (records/tally/answer-time.ts `answerSecondsOf`). */
  medianAnswerSeconds: number | null
  slowest: SlowestAnswer | null
  /** The median over attempts of their time to first token (records/tally/answer-time.ts `firstTokenSecondsOf`); null when none streamed. */
  medianFirstTokenSeconds: number | null
  /** Answers that streamed, out of `answers`. */
  firstTokens: number
  answers: number
  /** Mean tokens per attempt, over attempts where the agent reported them. */
  tokensPerAttempt: { input: number; output: number; attempts: number } | null
  /** Dollars spent on convy-ci's own models (the harness); null when no price was known. */
  costUsd: number | null
  /** The agent's own tokens at its price in convy.yml, over the run; null without a price. */
  agentCostUsd: number | null
  /** pass^k for k = 1…the smallest number of verdicts a scenario got, over scenarios with any. */
  passHatK: KEstimate[]
}

export function runFigures(tally: RunTally): RunFigures {
  const verdicts = emptyVerdictCounts()
  let answers = 0
  let firstTokens = 0
  let tokenAttempts = 0
  let tokensIn = 0
  let tokensOut = 0
  const statusCounts: Record<ScenarioStatus, number> = { failing: 0, flaky: 0, passing: 0, agent_error: 0, no_verdict: 0, user_error: 0, not_decided: 0 }
  const graded: Counts[] = []
  let scenarios = 0
  const passCounts: PassCounts[] = []
  const allAttempts: AttemptDigest[] = []
  let [agentCostUsd, agentCosted] = [0, 0]
  for (const s of tally.scenarios.values()) {
    if (s.attempts.length === 0) continue
    scenarios++
    passCounts.push({ passed: s.passed, counted: s.passed + s.failed + s.agentErrors })
    allAttempts.push(...s.attempts)
    ;[agentCostUsd, agentCosted] = [agentCostUsd + s.agentCostUsd, agentCosted + s.agentCostedAttempts]
    for (const key of VERDICT_COUNT_KEYS) verdicts[key] += s[key]
    answers += s.answers
    firstTokens += s.firstTokens
    tokenAttempts += s.tokenAttempts
    tokensIn += s.tokensIn
    tokensOut += s.tokensOut
    statusCounts[scenarioStatus(s)]++
    if (s.passed + s.failed > 0) graded.push({ passed: s.passed, total: s.passed + s.failed })
  }
  const counted = verdicts.passed + verdicts.failed + verdicts.agentErrors
  return {
    ...verdicts,
    attempts: tally.attempts,
    expectedAttempts: expectedAttempts(tally.manifest),
    passRate: passRate(passCounts),
    counted,
    passInterval: counted === 0 ? null : wilsonInterval(verdicts.passed, counted),
    scenarios,
    statusCounts,
    medianAnswerSeconds: answerSecondsOf(allAttempts),
    slowest: tally.slowest,
    medianFirstTokenSeconds: firstTokenSecondsOf(allAttempts),
    firstTokens,
    answers,
    tokensPerAttempt: tokenAttempts === 0 ? null : { input: tokensIn / tokenAttempts, output: tokensOut / tokenAttempts, attempts: tokenAttempts },
    costUsd: tally.costedAttempts === 0 ? null : tally.costUsd,
    agentCostUsd: agentCosted === 0 ? null : agentCostUsd,
    passHatK: passHatKs(graded),
  }
}

function passHatKs(graded: readonly Counts[]): KEstimate[] {
  if (graded.length === 0) return []
  const smallest = Math.min(...graded.map((s) => s.total))
  return Array.from({ length: smallest }, (_, i) => passHatK(graded, i + 1))
}
