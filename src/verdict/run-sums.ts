import type { Scenario } from '../records/scenario/scenario.ts'
import { wilsonInterval } from '../base/stats/intervals.ts'
import { judgeNoise, type JudgeNoise, type Judgements } from '../base/stats/judge-noise.ts'
import { answerSecondsOf } from '../records/tally/answer-time.ts'
import { scenarioJudgeNoise, type RunTally, type ScenarioTally } from '../records/tally/run-tally.ts'
import type { ScenarioSide } from './comparison.ts'

/**
 * What a comparison reads of a run's tally: the scenarios run.json lists (attempts naming any other
 * are left out, and only counted) and the run's sums over them. Derived from the tally, never from
 * the attempts: the run was read once, by whoever made the tally.
 */
export interface RunSums {
  scenarios: Map<string, ListedScenario>
  attempts: number
  /** Attempts naming a scenario that run.json does not list; they are left out. */
  unknownScenarioAttempts: number
  answers: number
  answerSeconds: number
  slowestAnswerSeconds: number | null
  attemptsWithTokens: number
  tokensIn: number
  tokensOut: number
  costUsd: number | null
}

/** A scenario of run.json, with its counts. */
export type ListedScenario = ScenarioTally & { scenario: Scenario }

export function runSums(tally: RunTally): RunSums {
  const scenarios = new Map<string, ListedScenario>()
  const sums: RunSums = {
    scenarios,
    attempts: 0,
    unknownScenarioAttempts: tally.unknownScenarioAttempts,
    answers: 0,
    answerSeconds: 0,
    slowestAnswerSeconds: null,
    attemptsWithTokens: 0,
    tokensIn: 0,
    tokensOut: 0,
    costUsd: null,
  }
  for (const [id, scenario] of tally.scenarios) {
    if (!isListed(scenario)) continue
    scenarios.set(id, scenario)
    sums.attempts += scenario.attempts.length
    sums.answers += scenario.answers
    sums.answerSeconds += scenario.answerSeconds
    if (scenario.answers > 0) sums.slowestAnswerSeconds = Math.max(sums.slowestAnswerSeconds ?? 0, scenario.slowestAnswer)
    sums.attemptsWithTokens += scenario.tokenAttempts
    sums.tokensIn += scenario.tokensIn
    sums.tokensOut += scenario.tokensOut
    if (scenario.costedAttempts > 0) sums.costUsd = (sums.costUsd ?? 0) + scenario.costUsd
  }
  return sums
}

function isListed(scenario: ScenarioTally): scenario is ListedScenario {
  return scenario.scenario !== null
}

export function scenarioSide(tally: ScenarioTally): ScenarioSide {
  // An agent error is a failed attempt: the agent broke. A rise in errors is then Worse by the same
  // tests, and a steady error rate is noise; only convy-ci's own models failing leaves an attempt out.
  const judged = tally.passed + tally.failed + tally.agentErrors
  return {
    passed: tally.passed,
    judged,
    attempts: judged + tally.noVerdicts,
    agentErrors: tally.agentErrors,
    noVerdicts: tally.noVerdicts,
    userErrors: tally.userErrors,
    notDecided: tally.notDecided,
    rate: judged === 0 ? null : tally.passed / judged,
    interval: wilsonInterval(tally.passed, judged),
    medianAnswerSeconds: answerSecondsOf(tally.attempts),
    judge: judgeOf(tally),
  }
}

function judgeOf(tally: ScenarioTally): ScenarioSide['judge'] {
  const noise = scenarioJudgeNoise(tally)
  return noise === null ? null : { flipRate: noise.flipRate, judgeNoise: noise.judgeNoise, agentFlakiness: noise.agentFlakiness, unstable: noise.unstable }
}

/**
 * Ĵ and Â over both runs' attempts of a scenario pooled (stats/judge-noise.ts): those judged several
 * times with their samples, those judged once as a pass or a fail (agent errors as fails). Null
 * when neither run has judge samples.
 */
export function pooledJudgeNoise(before: ScenarioTally, after: ScenarioTally): JudgeNoise | null {
  return judgeNoise([...judgedOnce(before), ...judgedOnce(after), ...before.judgements, ...after.judgements])
}

function judgedOnce(tally: ScenarioTally): Judgements[] {
  const sampledPasses = tally.judgements.filter((j) => 2 * j.passes > j.samples).length
  const once = Math.max(0, tally.passed + tally.failed + tally.agentErrors - tally.judgements.length)
  const passes = Math.min(once, Math.max(0, tally.passed - sampledPasses))
  return Array.from({ length: once }, (_, i) => ({ passes: i < passes ? 1 : 0, samples: 1 }))
}
