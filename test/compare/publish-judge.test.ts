import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { agreementOf } from '../../src/base/stats/agreement.ts'
import { publishRun } from '../../src/app/publish/publish-run.ts'
import type { PublishDeps } from '../../src/app/publish/deps.ts'
import { judgeOf, type Calibration } from '../../src/records/calibration/calibration.ts'
import { tallyRecord } from '../../src/records/tally/run-tally.ts'
import { syntheticRun } from '../fakes/synthetic-run.ts'

/**
 * The action and `convy-ci publish` share publishRun: with the project's calibration in its settings,
 * the comment cites it (or flags it stale) and judge.min_kappa holds back a passing gate.
 */
describe('publishRun with a judge calibration', () => {
  // Two runs of one agent with the same seed: within noise of each other, a passing gate.
  const before = tallyRecord(syntheticRun({ seed: 3, scenarios: 6, k: 4 }))
  const after = tallyRecord(syntheticRun({ seed: 3, scenarios: 6, k: 4 }))
  const judge = judgeOf(after.manifest)!
  const calibration = (model = judge.model): Calibration => ({
    format: 1,
    judge: { ...judge, model },
    decisions: 'recorded',
    labels: { file: 'labels.jsonl', fingerprint: 'x', runs: [] },
    overall: agreementOf({ bothHold: 40, judgeFails: 5, judgeHolds: 3, bothFail: 12 }),
    scenarios: [],
    disagreements: 8,
    checkedAt: '2026-12-01T10:00:00.000Z',
    convyVersion: '0',
  })
  const logged: string[] = []
  const deps = (judgeSetting: PublishDeps['settings']['judge']): PublishDeps => ({
    octokit: null,
    repository: { owner: 'acme', repo: 'bot' },
    serverUrl: 'https://github.com',
    settings: { failOn: 'worse', failOnInconclusive: false, gateAcrossJudgeChange: false, comment: 'always', check: true, job: null, judge: judgeSetting },
    log: { info: (m) => logged.push(m), notice: (m) => logged.push(m), warning: (m) => logged.push(m) },
    now: () => new Date('2026-12-01T12:00:00Z'),
  })
  const publish = (setting: PublishDeps['settings']['judge']) =>
    publishRun(deps(setting), { agent: 'support_bot', tally: after, reportUrl: null }, { tally: before, source: { kind: 'artifact', runId: 1 } }, null)

  test('without a judge setting the gate passes and the comment says nothing of calibration', async () => {
    const published = await publish(undefined)
    assert.equal(published.gated.outcome, 'pass', published.gated.reason)
    assert.doesNotMatch(published.markdown, /calibration|checked against/i)
  })

  test('a matching calibration is cited in the comment: agreement 87%, κ 0.66 on 60 labels', async () => {
    // κ 0.66, 95% CI 0.44–0.88: the minimum is held against the lower end.
    const published = await publish({ minKappa: 0.4, calibration: calibration() })
    assert.match(published.markdown, /_\n\n> Judge checked against a person's labels: judge agreement 87%, κ 0\.66 on 60 labels \\?\(2026-12-01\\?\)\./)
    assert.equal(published.gated.outcome, 'pass')
  })

  test('min_kappa above the checked κ makes the passing gate inconclusive and the check neutral; a stale calibration is flagged', async () => {
    const strict = await publish({ minKappa: 0.7, calibration: calibration() })
    assert.equal(strict.gated.outcome, 'inconclusive')
    assert.match(strict.gated.reason, /unchecked judge: its κ against the labels is 0\.66 \(95% CI 0\.44–0\.88\): the lower end is below judge\.min_kappa 0\.7/)
    assert.equal(strict.conclusion, 'neutral')
    assert.equal(strict.failure, null, 'inconclusive fails only with fail-on-inconclusive')
    assert.equal(strict.failedBy, null)
    // With fail-on-inconclusive (the default) the same gate fails, as evidence missing: `publish` exits 3 for it, not 1.
    const failing = await publishRun({ ...deps({ minKappa: 0.7, calibration: calibration() }), settings: { ...deps(undefined).settings, failOnInconclusive: true, judge: { minKappa: 0.7, calibration: calibration() } } }, { agent: 'support_bot', tally: after, reportUrl: null }, { tally: before, source: { kind: 'artifact', runId: 1 } }, null)
    assert.match(failing.failure ?? '', /inconclusive \(fail-on-inconclusive\)/)
    assert.equal(failing.failedBy, 'evidence-missing')
    assert.equal((await publish(undefined)).failedBy, null)

    const stale = await publish({ minKappa: null, calibration: calibration('another-judge') })
    assert.match(stale.markdown, /> ⚠️ Judge calibration is stale: the judge model is ".+", the labels checked "another-judge"/)
    assert.equal(stale.gated.outcome, 'pass', 'without min_kappa a stale calibration is said, not gated on')
  })
})
