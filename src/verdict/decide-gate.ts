import type { Comparison } from './comparison.ts'
import { gate, gateRun, missing, type FailOn, type GatedRun, type GateResult, type InconclusiveKind } from './gate.ts'
import { withBaselineHealth, type BaselineHealth } from './baseline-health.ts'
import { withJudgeCalibration, type JudgeGate } from './judge-calibration.ts'
import { slowerThan } from './speed.ts'
import { costlierThan } from './cost.ts'
import { standing } from './standing.ts'

/**
 * The merge gate, decided once. `compare --fail-on`, `convy-ci publish`, the action and the library
 * all call this, and the action's `verdict` and `inconclusive` outputs, the check's conclusion, the
 * exit code and the comment are all read from its one decision, so none of them can be walked
 * around: a within-noise comparison over an unhealthy baseline, or one that rests on a judge below
 * judge.min_kappa, is `inconclusive` in the verdict output too, not `within-noise`.
 *
 * The composition, in order: the statistics (gate.ts), the baseline's health (only `fail-on: worse`
 * holds the run against its baseline), the judge's calibration (wherever the gate gates, i.e. below
 * `fail-on: never`), then the speed and cost limits (asked for on their own, so they gate under any
 * fail-on). Each step is never more lenient than the one before it.
 */
export type GateVerdict = 'better' | 'worse' | 'within-noise' | 'inconclusive'

export interface GateSettings {
  failOn: FailOn
  /** Gate across a change of judge that no rejudge settled, as if nothing changed. */
  acrossJudgeChange?: boolean
  /** How the baseline stands against the run (baseline-health.ts); absent: not looked at, healthy. */
  health?: BaselineHealth | null
  /** The judge's calibration held against judge.min_kappa (judge-calibration.ts); absent: no minimum. */
  judge?: JudgeGate | null
  /** `--fail-on-slower PCT` / `fail-on-slower`: fail on answers significantly slower by PCT% or more; null: off. */
  slowerPercent?: number | null
  /** `--fail-on-costlier PCT` / `fail-on-costlier`: the same for agent tokens and dollars per attempt; null: off. */
  costlierPercent?: number | null
  /**
   * The base branch's rules the pull request's run does not meet and no stricter setting can restore
   * (it played fewer attempts, or was judged by another judge): a pass is then evidence missing.
   */
  unmetRules?: readonly string[]
}

/** What the gate is decided on: a comparison with the baseline, or without one the run's own attempts (`fail-on: failing`). */
export type GateEvidence = { comparison: Comparison } | { run: GatedRun }

export interface GateDecision {
  /** The gate under the step's own fail-on: what fails the step or the command, and the check's conclusion. */
  result: GateResult
  /**
   * The `verdict` output: what the gate with `fail-on: worse` decides, everything above counted (so a
   * slower agent past fail-on-slower is `worse`); null without a comparison (no baseline).
   */
  verdict: GateVerdict | null
  /** With verdict inconclusive, which one; null otherwise. */
  inconclusive: InconclusiveKind | null
  /** The `fail-on: worse` decision the verdict is read from (the same object as `result` under worse); null without a comparison. */
  worse: GateResult | null
}

export function decideGate(evidence: GateEvidence, settings: GateSettings): GateDecision {
  if (!('comparison' in evidence)) {
    const result = withJudge(gateRun(evidence.run, settings.failOn), settings.failOn, settings.judge)
    return { result, verdict: null, inconclusive: null, worse: null }
  }
  const c = evidence.comparison
  const result = decideUnder(c, settings.failOn, settings)
  const worse = settings.failOn === 'worse' ? result : decideUnder(c, 'worse', settings)
  const verdict: GateVerdict = worse.outcome === 'inconclusive' ? 'inconclusive' : worse.outcome === 'fail' ? 'worse' : c.verdict
  return { result, verdict, inconclusive: verdict === 'inconclusive' ? worse.inconclusive : null, worse }
}

function decideUnder(c: Comparison, failOn: FailOn, settings: GateSettings): GateResult {
  const statistics = gate(c, { failOn, acrossJudgeChange: settings.acrossJudgeChange ?? false })
  const held = failOn === 'worse' && settings.health ? withBaselineHealth(statistics, settings.health) : statistics
  return withLimits(withUnmetRules(withJudge(held, failOn, settings.judge), failOn, settings.unmetRules ?? []), c, settings)
}

/**
 * A pull request that lowered what the base branch's rules ask for (attempts, the judge) cannot pass
 * on the run it made: evidence missing, naming the change. A fail stays a fail.
 */
function withUnmetRules(result: GateResult, failOn: FailOn, unmet: readonly string[]): GateResult {
  if (unmet.length === 0 || failOn === 'never' || result.outcome === 'fail') return result
  return missing(`Not a pass: ${unmet.join('; ')}. ${result.reason}`, result.scenarios)
}

function withJudge(result: GateResult, failOn: FailOn, judge: JudgeGate | null | undefined): GateResult {
  return judge && failOn !== 'never' ? withJudgeCalibration(result, judge) : result
}

/**
 * A significant slow-down or cost rise past its limit fails whatever the statistics on pass rates
 * said: it is a finding of its own, not a lack of evidence. A fail already there keeps its reason first.
 */
function withLimits(result: GateResult, c: Comparison, settings: GateSettings): GateResult {
  const slower = settings.slowerPercent == null ? null : slowerThan(c.speed, settings.slowerPercent)
  const costlier = settings.costlierPercent == null ? null : costlierThan(c.cost, settings.costlierPercent)
  const found = [slower, costlier].filter((r) => r !== null)
  if (found.length === 0) return result
  const reason = found.map((f) => f.reason).join(' ')
  const scenarios = [...new Set(found.flatMap((f) => f.scenarios))]
  if (result.outcome === 'fail') return { ...result, reason: `${result.reason} ${reason}`, scenarios: [...new Set([...result.scenarios, ...scenarios])] }
  const also = result.outcome === 'inconclusive' ? ` Also: ${result.reason}` : ''
  return { outcome: 'fail', inconclusive: null, failKind: 'limit', reason: `${reason}${also}`, scenarios, tellingK: null }
}

/** Whether the gate (fail-on: worse) decided more than the heading, made from the comparison alone, says. */
export function gateBeyondStanding(comparison: Comparison, decision: GateDecision): boolean {
  if (!decision.worse || decision.worse.outcome === 'pass') return false
  const shown = standing(comparison)
  if (decision.verdict === 'worse') return shown !== 'worse'
  return shown === 'within-noise' || shown === 'better' || shown === 'worse' || (shown === 'cannot-tell' && decision.inconclusive === 'evidence-missing')
}
