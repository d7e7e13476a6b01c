import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { agreementOf } from '../../src/base/stats/agreement.ts'
import { calibrationStatus, type Calibration } from '../../src/records/calibration/calibration.ts'
import type { GateResult } from '../../src/verdict/gate.ts'
import { judgeGate, withJudgeCalibration, type JudgeGate } from '../../src/verdict/judge-calibration.ts'
import { syntheticManifest } from '../fakes/synthetic-run.ts'

const manifest = syntheticManifest()
const judge = { model: manifest.models.judge!, prompt: manifest.prompts?.judge ?? null, temperature: manifest.prompts?.judgeTemperature ?? null, samples: manifest.prompts?.judgeSamples ?? 1 }

/** A calibration of `of` (default: the manifest's judge) with the table's figures. */
function calibration(table: [number, number, number, number], of = judge): Calibration {
  const [bothHold, judgeFails, judgeHolds, bothFail] = table
  const overall = agreementOf({ bothHold, judgeFails, judgeHolds, bothFail })
  return { format: 1, judge: of, decisions: 'recorded', labels: { file: 'labels.jsonl', fingerprint: 'x', runs: [] }, overall, scenarios: [], disagreements: judgeFails + judgeHolds, checkedAt: '2026-12-01T00:00:00.000Z', convyVersion: '0' }
}

const PASS: GateResult = { outcome: 'pass', inconclusive: null, failKind: null, reason: 'Within noise of the baseline.', scenarios: [], tellingK: null }
const FAIL: GateResult = { outcome: 'fail', inconclusive: null, failKind: 'worse', reason: 'Worse than the baseline.', scenarios: ['refund'], tellingK: null }
const INCONCLUSIVE: GateResult = { outcome: 'inconclusive', inconclusive: 'too-little-to-tell', failKind: null, reason: 'Inconclusive: k too low.', scenarios: [], tellingK: 5 }
// 45 both hold, 2 and 1 disagreements, 12 both fail: pₒ = 57/60, pₑ = (47·46 + 13·14)/60², κ = 0.857.
const GOOD = calibration([45, 2, 1, 12])

describe('withJudgeCalibration', () => {
  test('without min_kappa nothing changes, whatever the calibration', () => {
    for (const c of [null, GOOD, calibration([5, 5, 5, 5])]) for (const r of [PASS, FAIL, INCONCLUSIVE]) assert.deepEqual(withJudgeCalibration(r, judgeGate(null, c, manifest)), r)
  })

  test('a matching calibration whose κ interval starts at or above min_kappa leaves the gate as it is', () => {
    const { value, interval } = GOOD.overall.kappa!
    assert.ok(value > 0.85 && value < 0.9, String(value))
    assert.ok(interval.lower > 0.69 && interval.lower < 0.7, String(interval.lower))
    for (const r of [PASS, FAIL, INCONCLUSIVE]) assert.deepEqual(withJudgeCalibration(r, judgeGate(0.65, GOOD, manifest)), r)
    assert.deepEqual(withJudgeCalibration(PASS, judgeGate(interval.lower, GOOD, manifest)), PASS)
  })

  test('min_kappa gates on the lower end of κ’s 95% interval, not its point estimate (issue 38)', () => {
    // κ 0.86 on 60 labels clears 0.7 on its point estimate, but its interval starts at 0.699: not shown to be 0.7.
    const gated = withJudgeCalibration(PASS, judgeGate(0.7, GOOD, manifest))
    assert.equal(gated.outcome, 'inconclusive')
    assert.match(gated.reason, /its κ against the labels is 0\.86 \(95% CI 0\.70–1\.00\): the lower end is below judge\.min_kappa 0\.7/)
  })

  test('no calibration, a stale one, a κ below the minimum or an undefined κ: a pass becomes inconclusive; a fail stays a fail', () => {
    const gates: [JudgeGate, RegExp][] = [
      [judgeGate(0.7, null, manifest), /no calibration of this judge/],
      [judgeGate(0.7, calibration([45, 2, 1, 12], { ...judge, model: 'another-judge' }), manifest), /stale \(the judge model is ".+", the labels checked "another-judge"\)/],
      [judgeGate(0.7, calibration([45, 2, 1, 12], { ...judge, samples: judge.samples + 2 }), manifest), /stale \(the judge takes \d sample/],
      [judgeGate(0.9, GOOD, manifest), /its κ against the labels is 0\.86 \(95% CI 0\.70–1\.00\): the lower end is below judge\.min_kappa 0\.9/],
      [judgeGate(0.7, calibration([20, 0, 0, 0]), manifest), /its κ against the labels is undefined/],
    ]
    for (const [gate, why] of gates) {
      const passed = withJudgeCalibration(PASS, gate)
      assert.equal(passed.outcome, 'inconclusive')
      assert.equal(passed.inconclusive, 'evidence-missing', 'an unchecked judge is evidence missing: it fails by default')
      assert.match(passed.reason, /^The verdict rests on an unchecked judge: /)
      assert.match(passed.reason, why)
      const failed = withJudgeCalibration(FAIL, gate)
      assert.equal(failed.outcome, 'fail', 'never more lenient')
      assert.match(failed.reason, /^Worse than the baseline\. The verdict rests on an unchecked judge/)
      assert.equal(withJudgeCalibration(INCONCLUSIVE, gate).inconclusive, 'evidence-missing', 'too little to tell becomes the stricter kind')
    }
  })

  test('calibrationStatus: a run without a judge has none to speak of', () => {
    assert.deepEqual(calibrationStatus(GOOD, { ...manifest, models: { ...manifest.models, judge: null } }), { kind: 'none' })
    assert.equal(calibrationStatus(GOOD, manifest).kind, 'matches')
  })
})
