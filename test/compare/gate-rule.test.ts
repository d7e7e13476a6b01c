import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { compareRuns } from '../../src/verdict/compare-runs.ts'
import { gate, gateFails } from '../../src/verdict/gate.ts'
import { decideGate } from '../../src/verdict/decide-gate.ts'
import { standing } from '../../src/verdict/standing.ts'
import { tallyRecord, type RunRecord } from '../../src/records/tally/run-tally.ts'
import { run, scenario } from './run-builder.ts'

const now = new Date('2026-03-02T00:00:00Z')
const compare = (before: RunRecord, after: RunRecord) => compareRuns(tallyRecord(before), tallyRecord(after), { now })
const steady = (n: number, outcome = 'PPPPP') => Object.fromEntries(Array.from({ length: n }, (_, i) => [`s${i}`, outcome]))
const worse = { failOn: 'worse' } as const

describe('the gate decides on the worse of the comparison on verdicts and the strict one', () => {
  test('what the PR lacks is counted against it: 5/5 → 2 failed + 3 user errors is within noise on verdicts, evidence missing counted', () => {
    const c = compare(run({ ...steady(9), x: 'PPPPP' }), run({ ...steady(9), x: 'FFUUU' }))
    assert.equal(c.verdict, 'within-noise')
    assert.equal(c.strict.verdict, 'worse')
    assert.deepEqual(c.strict.hidden.map((s) => [s.id, s.before, s.after, s.missing]), [['x', { passed: 5, total: 5 }, { passed: 0, total: 5 }, ['user-error']]])
    const result = gate(c, worse)
    assert.deepEqual([result.outcome, result.inconclusive, result.scenarios], ['inconclusive', 'evidence-missing', ['x']])
    assert.match(result.reason, /^Evidence missing: counted as failed, what this run lacks makes it Worse than the baseline \(one-sided p = [\d.]+\): x 5\/5 → 0\/5 \(attempts relabelled user error\)\.$/)
    assert.equal(gateFails(result), true, 'evidence missing fails by default')
    assert.equal(gateFails(result, false), false, 'fail-on-inconclusive: false opts out')
    assert.equal(decideGate({ comparison: c }, worse).verdict, 'inconclusive')
    assert.equal(standing(c), 'evidence-missing')
  })

  test("the baseline's own missing verdicts count alike: the same share on both sides is not Worse", () => {
    const c = compare(run({ ...steady(9), x: 'PPPNU' }), run({ ...steady(9), x: 'PPPUN' }))
    assert.equal(c.strict.verdict, 'within-noise')
    assert.equal(gate(c, worse).outcome, 'pass')
  })

  test('a significant rise of user_error is Worse, with the sentence a reviewer needs', () => {
    const c = compare(run({ ...steady(9), x: 'PPPPPPPPPP' }), run({ ...steady(9), x: 'UUUUUUUUUU' }))
    assert.equal(c.userErrors.rose, true)
    assert.deepEqual(c.userErrors.scenarios.map((s) => [s.id, s.before.userErrors, s.after.userErrors]), [['x', 0, 10]])
    const result = gate(c, worse)
    assert.equal(result.outcome, 'fail')
    assert.match(result.reason, /the simulated user went off script far more often against this version — usually the agent's doing/)
    assert.equal(standing(c), 'worse')
    // One stray user error is noise.
    assert.equal(compare(run({ ...steady(9), x: 'PPPPP' }), run({ ...steady(9), x: 'PPPPU' })).userErrors.rose, false)
  })

  test('a scenario testable before and without any verdict after cannot pass, whatever the share', () => {
    const c = compare(run({ ...steady(30), x: 'PPPPP' }), run({ ...steady(30), x: 'NNNNN' }))
    assert.deepEqual(c.coverage.blindAfter, ['x'])
    assert.equal(c.coverage.inconclusive, null, 'far under a fifth of the attempts')
    const result = gate(c, worse)
    assert.equal(result.inconclusive, 'evidence-missing')
    assert.match(result.reason, /no verdict at all in this run for x, which the baseline's verdicts could test/)
  })

  test('one scenario collapsing registers whatever the others do: 5/5 → 0/5 among 19 flaky scenarios', () => {
    // Each flaky scenario swaps 3/5 and 2/5 between the runs: every one could reach a small p, so Tarone counts them all.
    const flaky = (flip: boolean) => Object.fromEntries(Array.from({ length: 19 }, (_, i) => [`f${i}`, (i % 2 === 0) !== flip ? 'PPPFF' : 'PPFFF']))
    const c = compare(run({ x: 'PPPPP', ...flaky(false) }), run({ x: 'FFFFF', ...flaky(true) }))
    assert.ok(c.corrections.worse.threshold < 0.004, `Tarone alone would not flag it: ${c.corrections.worse.threshold}`)
    assert.deepEqual(c.scenarios.worse.filter((s) => s.alone).map((s) => s.id), ['x'])
    assert.equal(gate(c, worse).outcome, 'fail')
  })

  test('a collapse counts the baseline attempts that were decided: one agent error or missing verdict there does not switch it off (issue 38)', () => {
    const flaky = (flip: boolean) => Object.fromEntries(Array.from({ length: 19 }, (_, i) => [`f${i}`, (i % 2 === 0) !== flip ? 'PPPFF' : 'PPFFF']))
    // The loosening route: the baseline's one agent error (counted as failed: 4/5) or missing verdict (4/4)
    // made 5/5 → 0/5 an ordinary 4/5 → 0/5, which Tarone's threshold among 19 flaky scenarios never flags.
    for (const baseline of ['PPPPE', 'PPPPN', 'PPPPU', 'EPPPPPPPPN']) {
      const c = compare(run({ x: baseline, ...flaky(false) }), run({ x: 'FFFFF', ...flaky(true) }))
      assert.deepEqual(c.scenarios.worse.filter((s) => s.alone).map((s) => s.id), ['x'], baseline)
      assert.equal(gate(c, worse).outcome, 'fail', baseline)
    }
    // The pull request's own missing verdict is counted against it (the strict comparison): not a pass either.
    const lacking = compare(run({ x: 'PPPPN', ...flaky(false) }), run({ x: 'FFFFN', ...flaky(true) }))
    assert.equal(gate(lacking, worse).outcome, 'inconclusive')
    assert.equal(gate(lacking, worse).inconclusive, 'evidence-missing')
    // Fewer than four decided baseline attempts are too few to call it a collapse: 3/3 → 0/5 is chance 1 in 56.
    const few = compare(run({ x: 'PPPNN', ...flaky(false) }), run({ x: 'FFFFF', ...flaky(true) }))
    assert.deepEqual(few.scenarios.worse.filter((s) => s.alone).map((s) => s.id), [])
  })

  test('renamed: matched by content, compared under the new id, and listed with the baseline standing', () => {
    const before = run({ ...steady(5), old: 'PPPPP' })
    const after = run({ ...steady(5), new: 'FFFFF' }, { scenarios: { new: scenario('new', { user: 'You are testing old.' }) } })
    const c = compare(before, after)
    assert.deepEqual(c.scenarios.worse.map((s) => [s.id, s.renamedFrom]), [['new', 'old']])
    assert.deepEqual(c.scenarioChanges, [{ kind: 'renamed', id: 'new', from: 'old', reason: null, before: { passed: 5, judged: 5 }, after: { passed: 0, judged: 5 } }])
  })

  test('tags and description leave the fingerprint; an edited claim does not, and an edited scenario failing every attempt fails', () => {
    const tagged = compare(run({ ...steady(5), x: 'PPPPP' }), run({ ...steady(5), x: 'FFFFF' }, { scenarios: { x: scenario('x', { tags: ['new'], description: 'now described' }) } }))
    assert.deepEqual(tagged.scenarioChanges, [])
    assert.deepEqual(tagged.scenarios.worse.map((s) => s.id), ['x'])
    const edited = compare(run({ ...steady(5), x: 'PPP' }), run({ ...steady(5), x: 'FFF' }, { scenarios: { x: scenario('x', { judge: ['Another claim'] }) } }))
    assert.deepEqual(edited.scenarioChanges.map((s) => [s.kind, s.id, s.before, s.after]), [['edited', 'x', { passed: 3, judged: 3 }, { passed: 0, judged: 3 }]])
    const result = gate(edited, worse)
    assert.equal(result.outcome, 'fail')
    assert.equal(result.reason, "Edited and failing every attempt: x (0/3; the baseline's old version 3/3).")
  })

  test('a scenario that disappears does not pass; one retired on purpose is said and passes', () => {
    const before = run({ ...steady(5), gone: 'PPPPP' })
    const removed = compare(before, run(steady(5)))
    assert.equal(gate(removed, worse).inconclusive, 'evidence-missing')
    assert.match(gate(removed, worse).reason, /gone is gone from this run without a "retired:" entry/)
    const retired = compare(before, run(steady(5), { manifest: { retired: [{ id: 'gone', reason: 'moved to another agent' }] } }))
    assert.deepEqual(retired.scenarioChanges, [{ kind: 'retired', id: 'gone', from: null, reason: 'moved to another agent', before: { passed: 5, judged: 5 }, after: null }])
    assert.equal(gate(retired, worse).outcome, 'pass')
  })

  test('too little to tell is neutral, with the k that would tell; evidence missing is not', () => {
    const k2 = { manifest: { settings: { k: 2, parallel: 1, turnTimeoutSeconds: 60, scenarioGlobs: [], tags: [], smoke: false, shard: null } } }
    const c = compare(run(steady(5, 'PP'), k2), run(steady(5, 'PP'), k2))
    const result = gate(c, worse)
    assert.deepEqual([result.outcome, result.inconclusive, result.tellingK], ['inconclusive', 'too-little-to-tell', 4])
    assert.equal(gateFails(result), false)
    assert.equal(gateFails(result, true), false)
    assert.equal(decideGate({ comparison: c }, worse).verdict, 'inconclusive')
  })

  test('a change of judge no rejudge settled is evidence missing, Worse or not; --gate-across-judge-change gates as before', () => {
    const judged = { manifest: { models: { user: 'user-model', judge: 'another-judge', fingerprint: 'models-sha', prices: {} } } }
    const c = compare(run(steady(6)), run(steady(6), judged))
    assert.equal(gate(c, worse).inconclusive, 'evidence-missing')
    assert.equal(gate(c, { failOn: 'worse', acrossJudgeChange: true }).outcome, 'pass')
    const review = compare(run(steady(6)), run(steady(6), { manifest: { settings: { k: 5, parallel: 1, turnTimeoutSeconds: 60, scenarioGlobs: [], tags: [], smoke: false, shard: null, review: true } } }))
    assert.deepEqual(review.judgeChange?.changed, ['review'])
  })
})
