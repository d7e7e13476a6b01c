import { atMost, type Counts } from '../base/stats/counts.ts'
import { fisherExact, stratifiedExactTest, type FisherResult } from '../base/stats/exact-tests.ts'
import { newcombeInterval } from '../base/stats/intervals.ts'
import { taroneCorrection, type TaroneCorrection } from '../base/stats/tarone.ts'
import type { Interval } from '../base/stats/intervals.ts'

/**
 * The statistics that decide a comparison, on counts alone: the exact stratified test over the
 * scenarios, one-sided Fisher per scenario with Tarone's correction, and the verdict. compareRuns
 * and bench/verdict.ts (the false-alarm and power table) both decide through this one function.
 *
 * The levels were tuned with bench/verdict.ts and bench/gate.ts (docs/statistics.md): one-sided
 * 0.01 for the overall test and a family-wise 0.02 per direction for single scenarios leave room,
 * within a 2.5% false-alarm budget for the whole gate, for what issue 21 added beside them (the
 * collapse rule, the strict comparison, the user_error test). At 0.025 and 0.05 (the textbook levels)
 * the two tests alone cried wolf 3–4% of the time; at 0.015 and 0.025 about 2%, which with the
 * rest came to 2.6–2.9% on the evenly spread suite. Single-scenario power hardly depends on the
 * overall level: it comes from the scenario test and the collapse rule.
 */
export const OVERALL_ALPHA = 0.01
/** Φ⁻¹(1 − OVERALL_ALPHA), for the detectable-drop formula at the level actually applied. */
export const OVERALL_Z = 2.3263478740408408
/** Family-wise error rate per direction for flagging single scenarios. */
export const SCENARIO_ALPHA = 0.02
/**
 * A scenario that passed every one of at least this many attempts and now fails as many or more is
 * Worse whatever the others do. Tarone's correction counts every scenario that could reach its level,
 * so among six or more flaky scenarios its threshold fell under 5/5 → 0/5's one-sided p of 0.0040 and
 * a total collapse went unflagged. A collapse of an unchanged agent needs k passes then k fails of one
 * scenario: at k = 5 a chance of at most 1 in 1,024 (a scenario at exactly 50%), far less for scenarios
 * near 0 or 1; bench:gate measures what it costs a whole suite.
 */
export const COLLAPSE_ATTEMPTS = 5
/** A raw one-sided p at or under this that does not survive the correction is a "possible" change. */
export const POSSIBLE_ALPHA = 0.05

/** worse and better are claims the statistics support; everything else is within noise. */
export type Direction = 'worse' | 'better' | 'within-noise'

export interface OverallChange {
  /** How many scenarios both runs played, unchanged, with verdicts: the only ones the statistics use. */
  scenarios: number
  before: { rate: number | null; passed: number; judged: number }
  after: { rate: number | null; passed: number; judged: number }
  /** Change of the scenario-averaged pass rate. */
  change: number | null
  /** Newcombe's 95% interval for the change. */
  interval: Interval | null
  /** Exact stratified test, one-sided each way, and two-sided. */
  pWorse: number
  pBetter: number
  pTwoSided: number
  /** The stratified test alone, at one-sided OVERALL_ALPHA (decide.ts). */
  direction: Direction
}

/** One scenario both runs played alike: passes out of attempts the statistics count, before and after. */
export interface PairCounts {
  before: Counts
  after: Counts
  /** The judge disagrees with itself about this scenario (stats/judge-noise.ts): it cannot be Worse or Better alone. */
  judgeUnstable?: boolean
  /**
   * The baseline's *decided* attempts: passed or failed by the judge or a check (no agent error, no
   * missing verdict, no user_error). The collapse rule reads them; absent, `before` is taken.
   */
  beforeDecided?: Counts
}

export interface ScenarioDecision {
  /** One-sided Fisher p that after passes less often than before, and more often. */
  pWorse: number
  pBetter: number
  /**
   * Worse or better: on its own test after Tarone's correction (`alone`), or — when the pass rate as a
   * whole moved that way beyond noise — because it moved that way, so a Worse verdict always names
   * the scenarios that drove it.
   */
  group: 'worse' | 'better' | 'same'
  alone: boolean
  /** A raw one-sided p ≤ POSSIBLE_ALPHA that did not survive the correction. */
  possible: 'regression' | 'improvement' | null
  /** The direction it would have gone (alone, or with the pass rate), withheld because the judge is unstable about it (docs/statistics.md, judge noise). */
  judgeUnstable: 'worse' | 'better' | null
}

export interface Decision {
  overall: OverallChange
  scenarios: ScenarioDecision[]
  corrections: { worse: TaroneCorrection; better: TaroneCorrection }
  /** Worse if the pass rate or any scenario got worse; better likewise; else within noise. */
  verdict: Direction
}

/** The levels decide() uses; other levels only for exploring them (bench/verdict.ts). */
export interface DecisionLevels {
  overall: number
  scenario: number
}
const LEVELS: DecisionLevels = { overall: OVERALL_ALPHA, scenario: SCENARIO_ALPHA }

export function decide(pairs: readonly PairCounts[], levels: DecisionLevels = LEVELS): Decision {
  const tests = pairs.map((pair) => fisherOf(pair.after, pair.before))
  const corrections = {
    worse: taroneCorrection(tests.map((t) => t.minimumLess), levels.scenario),
    better: taroneCorrection(tests.map((t) => t.minimumGreater), levels.scenario),
  }
  const overall = overallChange(pairs, levels.overall)
  const scenarios = pairs.map((pair, index): ScenarioDecision => {
    const { less: pWorse, greater: pBetter } = tests[index]!
    const flagged = atMost(pWorse, corrections.worse.threshold) || collapsed(pair) ? 'worse' : atMost(pBetter, corrections.better.threshold) ? 'better' : null
    const alone = pair.judgeUnstable ? null : flagged
    const change = rate(pair.after) - rate(pair.before)
    const moved = overall.direction === 'worse' && change < 0 ? 'worse' : overall.direction === 'better' && change > 0 ? 'better' : null
    const drove = pair.judgeUnstable ? null : moved
    const group = alone ?? drove ?? 'same'
    const possible = group !== 'same' ? null : atMost(pWorse, POSSIBLE_ALPHA) ? 'regression' : atMost(pBetter, POSSIBLE_ALPHA) ? 'improvement' : null
    return { pWorse, pBetter, group, alone: alone !== null, possible, judgeUnstable: pair.judgeUnstable ? (flagged ?? moved) : null }
  })
  const flagged = (direction: 'worse' | 'better') => scenarios.some((s) => s.group === direction && s.alone)
  // A pass rate moved only by scenarios the judge is unstable about is not the agent's change either.
  const judgeOnly = (direction: 'worse' | 'better') => scenarios.some((s) => s.judgeUnstable === direction) && !scenarios.some((s) => s.group === direction)
  const overallSays = (direction: 'worse' | 'better') => overall.direction === direction && !judgeOnly(direction)
  // Worse wins: a pull request that breaks one scenario should not pass because another got better.
  const verdict = overallSays('worse') || flagged('worse') ? 'worse' : overallSays('better') || flagged('better') ? 'better' : 'within-noise'
  return { overall, scenarios, corrections, verdict }
}

/**
 * Fisher's test by table. Scenarios repeat the same few tables (5/5 against 5/5…), and the bench
 * decides millions of them; the answer depends on the four counts alone. Bounded, so it cannot grow.
 */
const fisherTables = new Map<string, FisherResult>()
export function fisherOf(after: Counts, before: Counts): FisherResult {
  const key = `${after.passed}/${after.total} ${before.passed}/${before.total}`
  let result = fisherTables.get(key)
  if (result === undefined) {
    if (fisherTables.size >= 10_000) fisherTables.clear()
    result = fisherExact(after, before)
    fisherTables.set(key, result)
  }
  return result
}

/**
 * The fewest decided baseline attempts the collapse rule counts: one fewer than COLLAPSE_ATTEMPTS, so
 * that one baseline attempt without a verdict or with an agent error does not switch the rule off
 * (issue 38: with 2% agent errors and 5% each without a verdict or relabelled, that one attempt made
 * 11% of real 1.0 → 0 breaks escape at k = 5). An unchanged scenario then collapses by chance at most
 * p⁴(1 − p)⁵ ≤ 0.21% (p = 4/9), in the rare baseline with exactly four decided attempts.
 */
export const COLLAPSE_DECIDED = COLLAPSE_ATTEMPTS - 1

/**
 * Passed every decided baseline attempt (at least COLLAPSE_DECIDED of them), now never passes (at
 * least COLLAPSE_ATTEMPTS attempts counted). An attempt of the baseline that says nothing of the
 * agent's claims (an agent error, a missing verdict, a user_error) neither counts for nor against it.
 */
export function collapsed(pair: PairCounts): boolean {
  const { after } = pair
  const before = pair.beforeDecided ?? pair.before
  return before.total >= COLLAPSE_DECIDED && before.passed === before.total && after.total >= COLLAPSE_ATTEMPTS && after.passed === 0
}

function rate(counts: Counts): number {
  return counts.passed / counts.total
}

function overallChange(pairs: readonly PairCounts[], alpha: number): OverallChange {
  const test = stratifiedExactTest(pairs.map((pair) => ({ first: pair.after, second: pair.before })))
  const side = (pick: (pair: PairCounts) => Counts) => {
    let rateSum = 0
    let passed = 0
    let judged = 0
    for (const pair of pairs) {
      const counts = pick(pair)
      rateSum += rate(counts)
      passed += counts.passed
      judged += counts.total
    }
    return { rate: pairs.length === 0 ? null : rateSum / pairs.length, passed, judged }
  }
  const before = side((pair) => pair.before)
  const after = side((pair) => pair.after)
  const measured = before.rate !== null && after.rate !== null
  return {
    scenarios: pairs.length,
    before,
    after,
    change: measured ? after.rate! - before.rate! : null,
    // Newcombe on the scenario-averaged rates with the counts as n: the interval is centred on the
    // change we report, and equals Newcombe on pooled counts when every scenario has equal n.
    interval: measured ? newcombeInterval({ rate: after.rate!, total: after.judged }, { rate: before.rate!, total: before.judged }) : null,
    pWorse: test.less,
    pBetter: test.greater,
    pTwoSided: test.twoSided,
    direction: atMost(test.less, alpha) ? 'worse' : atMost(test.greater, alpha) ? 'better' : 'within-noise',
  }
}
