import { atMost } from '../base/stats/counts.ts'
import type { Measured } from './attempt-measures.ts'
import { fisherExact } from '../base/stats/exact-tests.ts'
import type { Direction } from './decide.ts'
import type { ComparedTile, Tiles, Tone } from './comparison.ts'
import { scenarioSide, type RunSums } from './run-sums.ts'
import { passRate, type PassCounts } from '../records/tally/run-counts.ts'

/** One-sided level at which a tile's counts (errors) are called worse or better, as for the pass rate. */
const TILE_ALPHA = 0.025

/**
 * The before/after tiles, each over its own run's scenarios, but for the times: those are the
 * per-attempt comparisons' own figures and verdicts (`speed`, `firstToken`), so a tile never tells
 * a change the Speed and cost section and the gate do not. `passRateTone` comes from the stratified test.
 */
export function buildTiles(before: RunSums, after: RunSums, passRateTone: Direction, times: { speed: Measured; firstToken: Measured; agentDollars: Measured }): Tiles {
  const a = summarise(before)
  const b = summarise(after)
  return {
    passRate: tile(a.passRate, b.passRate, passRateTone),
    passed: tile(a.passed, b.passed, 'neutral', { before: a.judged, after: b.judged }),
    stableScenarios: tile(a.stable, b.stable, 'neutral', { before: a.scenariosWithVerdict, after: b.scenariosWithVerdict }),
    attempts: tile(before.attempts, after.attempts, 'neutral'),
    medianAnswerSeconds: timeTile(times.speed),
    slowestAnswerSeconds: tile(before.slowestAnswerSeconds, after.slowestAnswerSeconds, 'neutral'),
    medianFirstTokenSeconds: timeTile(times.firstToken),
    tokensInPerAttempt: tile(a.tokensIn, b.tokensIn, 'neutral'),
    tokensOutPerAttempt: tile(a.tokensOut, b.tokensOut, 'neutral'),
    agentErrors: countTile(a.agentErrors, before.attempts, b.agentErrors, after.attempts),
    noVerdicts: countTile(a.noVerdicts, before.attempts, b.noVerdicts, after.attempts),
    costUsd: tile(before.costUsd, after.costUsd, 'neutral'),
    agentCostPerAttempt: timeTile(times.agentDollars),
  }
}

function summarise(run: RunSums) {
  let scenariosWithVerdict = 0
  let stable = 0
  let passed = 0
  let judged = 0
  let agentErrors = 0
  let noVerdicts = 0
  const sides: PassCounts[] = []
  for (const tally of run.scenarios.values()) {
    const side = scenarioSide(tally)
    sides.push({ passed: side.passed, counted: side.judged })
    passed += side.passed
    judged += side.judged
    agentErrors += side.agentErrors
    noVerdicts += side.noVerdicts
    if (side.rate === null) continue
    scenariosWithVerdict++
    if (side.rate === 1) stable++
  }
  const perAttempt = (total: number) => (run.attemptsWithTokens === 0 ? null : total / run.attemptsWithTokens)
  return {
    // The pass rate as every surface counts it (records/tally/run-counts.ts).
    passRate: passRate(sides),
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

/**
 * A time tile: the medians per attempt the comparison tells, toned by its verdicts. Slower when
 * anything is told slower (overall or one scenario: what fail-on-slower fails on), faster when
 * something is told faster and nothing slower, within noise when nothing is told; neutral without
 * attempts on both sides, or with too few for the test to tell anything.
 */
export function timeTile(measured: Measured): ComparedTile {
  const { overall, scenarios } = measured
  const [before, after] = [overall.before.median, overall.after.median]
  const told = (change: 'higher' | 'lower') => overall.change === change || scenarios.some((s) => s.change === change)
  const tone: Tone = overall.ratio === null ? 'neutral' : told('higher') ? 'worse' : told('lower') ? 'better' : overall.couldTell ? 'within-noise' : 'neutral'
  return tile(before, after, before === null || after === null ? 'neutral' : tone)
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
