import { calibrationStatus, type Calibration, type CalibrationStatus } from '../records/calibration/calibration.ts'
import type { RunManifest } from '../records/journal/records.ts'
import type { GateResult } from './gate.ts'

/**
 * The judge's calibration as the gate sees it (convy.yml `judge: { min_kappa }`, the action's
 * `judge-min-kappa`): a verdict is only as good as the judge that decided it, so with a minimum set,
 * a comparison whose judge has no calibration that matches it with the lower end of κ's 95% interval
 * at that κ or above rests on an unchecked judge
 * and does not pass the gate: it is inconclusive for evidence missing.
 */
export interface JudgeGate {
  /** null: the option is not set; the calibration is cited, never gated on. */
  minKappa: number | null
  /** The calibration as it applies to the gated run's judge (records/calibration/calibration.ts). */
  status: CalibrationStatus
}

/** The project's calibration held against the gated run's judge. */
export function judgeGate(minKappa: number | null, calibration: Calibration | null, gated: RunManifest): JudgeGate {
  return { minKappa, status: calibrationStatus(calibration, gated) }
}

/** Why the judge does not meet the minimum, or null when it does (or none is set). */
export function uncheckedJudge(gate: JudgeGate): string | null {
  if (gate.minKappa === null) return null
  const { status, minKappa } = gate
  if (status.kind === 'none') return `no calibration of this judge against labels (convy-ci judge-check) and judge.min_kappa is ${minKappa}`
  if (status.kind === 'stale') return `its calibration is stale (${status.why}) and judge.min_kappa is ${minKappa}`
  const kappa = status.calibration.overall.kappa ?? null
  if (kappa === null) return `its κ against the labels is undefined (every label and decision gave one answer) and judge.min_kappa is ${minKappa}`
  // The lower end of κ's 95% interval, not its point estimate: a judge of true κ 0.6 cleared 0.7 on
  // its point estimate in 19.8% of calibrations on 50 labels (issue 38); the lower end rarely does.
  const lower = kappa.interval.lower
  if (lower < minKappa) return `its κ against the labels is ${kappa.value.toFixed(2)} (95% CI ${lower.toFixed(2)}–${kappa.interval.upper.toFixed(2)}): the lower end is below judge.min_kappa ${minKappa}`
  return null
}

/**
 * The gate's result with the judge's calibration taken into account. It is never more lenient: a
 * failing gate still fails (its reason says the judge is unchecked too); a passing one becomes
 * inconclusive, evidence missing, since nothing shows the judge that passed it can be trusted.
 * Callers apply it only where they gate (not under fail-on: never). An unchecked judge is evidence
 * missing, so a "too little to tell" becomes that stricter kind too.
 */
export function withJudgeCalibration(result: GateResult, gate: JudgeGate): GateResult {
  const unchecked = uncheckedJudge(gate)
  if (!unchecked) return result
  const sentence = `The verdict rests on an unchecked judge: ${unchecked}.`
  if (result.outcome === 'fail') return { ...result, reason: `${result.reason} ${sentence}` }
  return { ...result, outcome: 'inconclusive', inconclusive: 'evidence-missing', failKind: null, tellingK: null, reason: `${sentence} ${result.reason}` }
}
