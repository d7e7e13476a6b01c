import { atMost } from '../base/stats/counts.ts'
import { compareTimes } from './answer-times.ts'
import { fisherExact } from '../base/stats/fisher.ts'
import type { Direction, ComparedTile, Tiles, Tone } from './comparison.ts'
import { scenarioSide, type RunSums } from './run-sums.ts'

/** One-sided level at which a tile's counts (errors) are called worse or better, as for the pass rate. */
const TILE_ALPHA = 0.025

/** The before/after tiles, each over its own run's scenarios. `passRateTone` comes from the stratified test. */
export function buildTiles(before: RunSums, after: RunSums, passRateTone: Direction): Tiles {
  const a = summarise(before)
  const b = summarise(after)
  return {
    passRate: tile(a.passRate, b.passRate, passRateTone),
    passed: tile(a.passed, b.passed, 'neutral', { before: a.judged, after: b.judged }),
    stableScenarios: tile(a.stable, b.stable, 'neutral', { before: a.scenariosWithVerdict, after: b.scenariosWithVerdict }),
    attempts: tile(before.attempts, after.attempts, 'neutral'),
    meanAnswerSeconds: timeTile(before.answerTimes, after.answerTimes),
    slowestAnswerSeconds: tile(before.slowestAnswerSeconds, after.slowestAnswerSeconds, 'neutral'),
    meanFirstTokenSeconds: timeTile(before.firstTokenTimes, after.firstTokenTimes),
    tokensInPerAttempt: tile(a.tokensIn, b.tokensIn, 'neutral'),
    tokensOutPerAttempt: tile(a.tokensOut, b.tokensOut, 'neutral'),
    agentErrors: countTile(a.agentErrors, before.attempts, b.agentErrors, after.attempts),
    noVerdicts: countTile(a.noVerdicts, before.attempts, b.noVerdicts, after.attempts),
    costUsd: tile(before.costUsd, after.costUsd, 'neutral'),
  }
}

function summarise(run: RunSums) {
  let rateSum = 0
  let scenariosWithVerdict = 0
  let stable = 0
  let passed = 0
  let judged = 0
  let agentErrors = 0
  let noVerdicts = 0
  for (const tally of run.scenarios.values()) {
    const side = scenarioSide(tally)
    passed += side.passed
    judged += side.judged
    agentErrors += side.agentErrors
    noVerdicts += side.noVerdicts
    if (side.rate === null) continue
    scenariosWithVerdict++
    rateSum += side.rate
    if (side.rate === 1) stable++
  }
  const perAttempt = (total: number) => (run.attemptsWithTokens === 0 ? null : total / run.attemptsWithTokens)
  return {
    passRate: scenariosWithVerdict === 0 ? null : rateSum / scenariosWithVerdict,
    passed,
    judged,
    stable,
    scenariosWithVerdict,
    agentErrors,
    noVerdicts,
    tokensIn: perAttempt(run.tokensIn),
    tokensOut: perAttempt(run.tokensOut),
  }
}

/** Mean times, toned slower or faster only beyond noise (answer-times.ts). */
function timeTile(before: readonly number[], after: readonly number[]): ComparedTile {
  const mean = (times: readonly number[]) => (times.length === 0 ? null : times.reduce((sum, t) => sum + t, 0) / times.length)
  const [a, b] = [mean(before), mean(after)]
  if (a === null || b === null) return tile(a, b, 'neutral')
  // A change that reads "0 ms" is never red or green, whatever the medians did.
  const direction = Math.round(Math.abs(b - a) * 1000) === 0 ? 'within-noise' : compareTimes(before, after).direction
  return tile(a, b, direction)
}

function tile(before: number | null, after: number | null, tone: Tone, of: ComparedTile['of'] = null): ComparedTile {
  return { before, after, change: before === null || after === null ? null : after - before, tone, of }
}

/** Errors out of attempts: more of them is worse when Fisher's test says it is more than chance. */
function countTile(before: number, beforeAttempts: number, after: number, afterAttempts: number): ComparedTile {
  const { less, greater } = fisherExact({ passed: after, total: afterAttempts }, { passed: before, total: beforeAttempts })
  const tone: Tone = atMost(greater, TILE_ALPHA) ? 'worse' : atMost(less, TILE_ALPHA) ? 'better' : 'within-noise'
  return tile(before, after, tone, { before: beforeAttempts, after: afterAttempts })
}
