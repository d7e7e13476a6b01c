import { answers, attemptCostUsd, countVerdict } from '../journal/attempt-facts.ts'
import type { Attempt } from '../journal/records.ts'
import type { Scenario } from '../scenario/scenario.ts'
import { wilsonInterval } from '../stats/intervals.ts'
import type { RunRecord, ScenarioSide } from './comparison.ts'

/** Everything a comparison needs from one run, gathered in a single pass over its attempts. */
export interface RunTally {
  scenarios: Map<string, ScenarioTally>
  attempts: number
  /** Attempts naming a scenario that run.json does not list; they are left out. */
  unknownScenarioAttempts: number
  answers: number
  answerSeconds: number
  slowestAnswerSeconds: number | null
  /** Every successful answer's time, and its time to first token where it streamed: for the tests of answer times. */
  answerTimes: number[]
  firstTokenTimes: number[]
  attemptsWithTokens: number
  tokensIn: number
  tokensOut: number
  costUsd: number | null
}

export interface ScenarioTally {
  scenario: Scenario
  passed: number
  failed: number
  agentErrors: number
  noVerdicts: number
  answers: number
  answerSeconds: number
}

export function tallyRun({ manifest, attempts }: RunRecord): RunTally {
  const scenarios = new Map<string, ScenarioTally>()
  for (const scenario of manifest.scenarios) {
    scenarios.set(scenario.id, { scenario, passed: 0, failed: 0, agentErrors: 0, noVerdicts: 0, answers: 0, answerSeconds: 0 })
  }
  const run: RunTally = {
    scenarios,
    attempts: 0,
    unknownScenarioAttempts: 0,
    answers: 0,
    answerSeconds: 0,
    slowestAnswerSeconds: null,
    answerTimes: [],
    firstTokenTimes: [],
    attemptsWithTokens: 0,
    tokensIn: 0,
    tokensOut: 0,
    costUsd: null,
  }
  for (const attempt of attempts) {
    const scenario = scenarios.get(attempt.scenario)
    if (!scenario) {
      run.unknownScenarioAttempts++
      continue
    }
    run.attempts++
    countVerdict(scenario, attempt.verdict)
    countAnswers(run, scenario, attempt)
    if (attempt.agentTokens) {
      run.attemptsWithTokens++
      run.tokensIn += attempt.agentTokens.input
      run.tokensOut += attempt.agentTokens.output
    }
    const cost = attemptCostUsd(attempt)
    if (cost !== null) run.costUsd = (run.costUsd ?? 0) + cost
  }
  return run
}

function countAnswers(run: RunTally, scenario: ScenarioTally, attempt: Attempt): void {
  for (const turn of answers(attempt.turns)) {
    scenario.answers++
    scenario.answerSeconds += turn.seconds
    run.answers++
    run.answerSeconds += turn.seconds
    run.answerTimes.push(turn.seconds)
    if (turn.firstTokenSeconds !== undefined) run.firstTokenTimes.push(turn.firstTokenSeconds)
    if (run.slowestAnswerSeconds === null || turn.seconds > run.slowestAnswerSeconds) run.slowestAnswerSeconds = turn.seconds
  }
}

export function scenarioSide(tally: ScenarioTally): ScenarioSide {
  const judged = tally.passed + tally.failed
  return {
    passed: tally.passed,
    judged,
    attempts: judged + tally.agentErrors + tally.noVerdicts,
    agentErrors: tally.agentErrors,
    noVerdicts: tally.noVerdicts,
    rate: judged === 0 ? null : tally.passed / judged,
    interval: wilsonInterval(tally.passed, judged),
    meanAnswerSeconds: tally.answers === 0 ? null : tally.answerSeconds / tally.answers,
  }
}
