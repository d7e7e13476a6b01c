import { atMost, type Counts } from '../base/stats/counts.ts'
import { stratifiedExactTest } from '../base/stats/exact-tests.ts'
import { collapsed, fisherOf, SCENARIO_ALPHA } from './decide.ts'
import type { StopReason } from '../records/journal/adaptive-record.ts'

export type { StopReason }

/**
 * Adaptive attempts (issue 39, docs/statistics.md "Adaptive attempts"): which scenarios of a pull
 * request's run get more attempts, and which stop, looking at each scenario against the baseline after
 * k, 2k, 4k… attempts up to the ceiling (3 → 6 → 10 by default). Pure: the runner (through
 * app/pipeline) and bench/adaptive.ts both decide through `adaptiveLook`; the gate still decides on
 * whatever was played, through the ordinary comparison.
 *
 * Honest under optional stopping: a scenario stops early as Worse only by the collapse rule or when
 * its one-sided Fisher p is under α·t³ (t: the share of the ceiling played; α spent as t³, so little
 * is spent at the first looks), and the whole run stops only when the pooled stratified test is under
 * 1%·t³. Every other stop is for futility — the scenario is not heading to Worse, or no number of
 * further attempts could make it Worse — which can only lower the false-alarm rate. While the pooled
 * test leans worse (p ≤ 0.1) every scenario that could move it keeps playing, so a small drop spread
 * over all scenarios is not lost to each one looking fine on its own.
 */
export const ADAPTIVE_RULE = 'spend-t3-pooled'

export interface AdaptiveParameters {
  /** Attempts of the first round (run -k). */
  k: number
  /** The ceiling: attempts a scenario plays at most (run --max-attempts). */
  maxAttempts: number
  /** α of a single scenario's early Worse stop, spent as α·t³. */
  scenarioAlpha: number
  /** α of the pooled early stop of the whole run, spent as α·t³. */
  pooledAlpha: number
  /** While the pooled test's one-sided p is at most this, no scenario that could move it stops for futility. */
  pooledKeep: number
}

/** The rule's levels; k and the ceiling come from the run. */
export const ADAPTIVE_LEVELS = { scenarioAlpha: SCENARIO_ALPHA, pooledAlpha: 0.01, pooledKeep: 0.1 } as const


/** One scenario at a look: the baseline's counts and the pull request's so far. */
export interface AdaptiveScenario {
  id: string
  /** The baseline's passes of the attempts the statistics count (comparison.ts: judged). */
  before: Counts
  /** The baseline's decided attempts, for the collapse rule (decide.ts); absent: `before`. */
  beforeDecided?: Counts
  /** The pull request's so far, counted alike. */
  after: Counts
  /** The pull request's decided attempts so far (agent errors left out); absent: `after`. */
  afterDecided?: Counts
  /** Attempts the pull request played of it so far (any verdict): what t is measured in. */
  played: number
}

/** Play on to `next` attempts, or stop for `stopped`. */
export type AdaptiveStep = { next: number; stopped: null } | { next: null; stopped: StopReason }

/** The looks: k, 2k, 4k… capped at the ceiling (3, 6, 10). */
export function adaptiveLooks(k: number, maxAttempts: number): number[] {
  const looks: number[] = []
  for (let n = Math.min(k, maxAttempts); ; n = Math.min(n * 2, maxAttempts)) {
    looks.push(n)
    if (n >= maxAttempts) return looks
  }
}

/** The look after `played` attempts; null at the ceiling. */
export function nextLook(played: number, k: number, maxAttempts: number): number | null {
  return adaptiveLooks(k, maxAttempts).find((n) => n > played) ?? null
}

/** A scenario the baseline passed at least this often (decided attempts) may stop early for futility. */
export const STABLE_RATE = 0.9

/** Spent α at share t of the ceiling. */
export function spent(alpha: number, t: number): number {
  return alpha * Math.min(1, t) ** 3
}

/**
 * The step of every scenario at a look, on the counts as they stand. The runner takes the step of the
 * scenario whose round just ended; the bench, whose rounds end together, takes them all.
 */
export function adaptiveLook(scenarios: readonly AdaptiveScenario[], p: AdaptiveParameters): Map<string, AdaptiveStep> {
  const steps = new Map<string, AdaptiveStep>()
  const compared = scenarios.filter((s) => s.before.total > 0 && s.after.total > 0)
  const pooled = compared.length === 0 ? 1 : stratifiedExactTest(compared.map((s) => ({ first: s.after, second: s.before }))).less
  const suiteT = scenarios.reduce((sum, s) => sum + s.played, 0) / Math.max(1, scenarios.length * p.maxAttempts)
  const pooledWorse = atMost(pooled, spent(p.pooledAlpha, suiteT))
  const pooledLeans = atMost(pooled, p.pooledKeep)
  for (const s of scenarios) steps.set(s.id, stepOf(s, p, pooledWorse, pooledLeans))
  return steps
}

function stepOf(s: AdaptiveScenario, p: AdaptiveParameters, pooledWorse: boolean, pooledLeans: boolean): AdaptiveStep {
  const stop = (stopped: StopReason): AdaptiveStep => ({ next: null, stopped })
  if (s.before.total === 0) return s.played >= p.k ? stop('no-baseline') : { next: p.k, stopped: null }
  const next = nextLook(s.played, p.k, p.maxAttempts)
  if (s.after.total > 0 && worseNow(s, p)) return stop('worse')
  if (pooledWorse) return stop('pooled-worse')
  // All played so far lacked a verdict: nothing is known yet, so more attempts are the only way to know.
  if (s.after.total === 0) return next === null ? stop('undecided') : { next, stopped: null }
  const heading = rate(s.after) < rate(s.before)
  if (next === null) return stop(heading ? 'undecided' : 'decided')
  if (!couldBeWorse(s)) return stop('decided')
  // Stopped for futility only where the baseline passed it nearly always and the pull request as often
  // so far: a flaky scenario stopped whenever it looks fine would leave the ones that look bad to weigh
  // in the pooled test, and raise its false alarms (bench:adaptive measured 2.9% on a half-flaky suite).
  // An agent error is the agent's failure but says nothing of its claims: as in the collapse rule, decided attempts.
  const before = s.beforeDecided ?? s.before
  const after = s.afterDecided ?? s.after
  const stable = before.passed >= STABLE_RATE * before.total && rate(after) >= rate(before)
  if (stable && !pooledLeans) return stop('decided')
  return { next, stopped: null }
}

/** Worse on its own at this look: the collapse rule, or Fisher's one-sided p under α·t³. */
function worseNow(s: AdaptiveScenario, p: AdaptiveParameters): boolean {
  const pair = { before: s.before, after: s.after, ...(s.beforeDecided ? { beforeDecided: s.beforeDecided } : {}) }
  return collapsed(pair) || atMost(fisherOf(s.after, s.before).less, spent(p.scenarioAlpha, s.played / p.maxAttempts))
}

/**
 * Whether further attempts could still make it Worse: not when the baseline never passed it. (Asking
 * whether all remaining attempts failing would make it Worse on its own stops the flaky scenarios that
 * look fine and keeps the ones that look bad, which the pooled test then weighs: its false alarms rose.)
 */
function couldBeWorse(s: AdaptiveScenario): boolean {
  return s.before.passed > 0
}

function rate(c: Counts): number {
  return c.passed / c.total
}

/**
 * A scenario's counts from its attempts' verdicts, as the comparison counts them: passed out of passed,
 * failed and agent errors (judged); decided leaves the agent errors out (the collapse rule's).
 */
export function adaptiveCounts(verdicts: readonly string[]): { counts: Counts; decided: Counts } {
  let passed = 0
  let failed = 0
  let errors = 0
  for (const verdict of verdicts) {
    if (verdict === 'passed') passed++
    else if (verdict === 'failed') failed++
    else if (verdict === 'agent_error') errors++
  }
  return { counts: { passed, total: passed + failed + errors }, decided: { passed, total: passed + failed } }
}
