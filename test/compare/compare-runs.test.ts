import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { compareRuns } from '../../src/verdict/compare-runs.ts'
import { assertClose, exactFisher } from '../stats/exact-arithmetic.ts'
import { attempt, manifest, outcomes, run, scenario } from './run-builder.ts'
import { tallyRecord, type RunRecord } from '../../src/records/tally/run-tally.ts'

const now = new Date('2026-03-02T00:00:00Z')
const compare = (before: RunRecord, after: RunRecord) => compareRuns(tallyRecord(before), tallyRecord(after), { now })

/** stats.md's worked examples as [after passes, before passes] per scenario, 5 attempts each (see test/stats). */
const exampleA: [number, number][] = [[4, 5], [0, 4], [2, 5], [5, 5], [5, 5], [5, 5], [5, 5], [5, 5], [4, 3], [3, 3], [4, 3], [5, 5], [4, 3], [5, 5], [4, 5], [5, 4], [2, 4], [5, 5], [5, 5], [5, 5]]
const exampleB: [number, number][] = [[4, 2], [5, 5], [5, 5], [5, 4], [5, 5], [5, 5], [4, 5], [5, 5], [5, 5], [5, 5], [5, 4], [5, 5], [4, 5], [4, 5], [5, 5], [5, 5], [5, 5], [4, 5], [5, 5], [0, 5]]
const runsOf = (layout: [number, number][]) => {
  const side = (pick: 0 | 1) => run(Object.fromEntries(layout.map((pair, i) => [`s${String(i).padStart(2, '0')}`, outcomes(pair[pick], 5)])))
  return { before: side(1), after: side(0) }
}

describe('the verdict on stats.md’s worked examples', () => {
  test('A, a diffuse drop 89/100 → 82/100, is within noise, with a possible regression', () => {
    const { before, after } = runsOf(exampleA)
    const c = compare(before, after)
    assert.equal(c.verdict, 'within-noise')
    assert.equal(c.overall.direction, 'within-noise')
    assertClose(c.overall.pWorse, 0.09036680767101729)
    assertClose(c.overall.change!, -0.07, 1e-12)
    assertClose(c.overall.interval!.lower, -0.16881586593957312, 1e-12)
    assertClose(c.overall.interval!.upper, 0.028956477848623693, 1e-12)
    assert.deepEqual([c.scenarios.worse.length, c.scenarios.better.length, c.scenarios.same.length], [0, 0, 20])
    // One scenario could reach 0.02 in the worse direction, so it needs p ≤ 0.02; 4/5 → 0/5 has 6/252 ≈ 0.024.
    assert.equal(c.corrections.worse.testable, 1)
    const first = c.scenarios.same[0]!
    assert.equal(first.id, 's01')
    assert.equal(first.possible, 'regression')
    assertClose(first.pWorse, exactFisher(0, 5, 4, 5).less, 1e-12)
  })

  test('B, one scenario 5/5 → 0/5, is within noise overall but Worse through that scenario', () => {
    const { before, after } = runsOf(exampleB)
    const c = compare(before, after)
    assert.equal(c.overall.direction, 'within-noise')
    assertClose(c.overall.pWorse, 0.11696015211640216)
    assertClose(c.overall.interval!.lower, -0.12962420365148336, 1e-12)
    assert.equal(c.verdict, 'worse')
    assert.deepEqual(c.scenarios.worse.map((s) => s.id), ['s19'])
    assertClose(c.scenarios.worse[0]!.pWorse, exactFisher(0, 5, 5, 5).less, 1e-12)
    assert.equal(c.scenarios.same.some((s) => s.possible === 'regression'), false)
  })

  test('Better is symmetric: B played backwards is Better', () => {
    const { before, after } = runsOf(exampleB)
    const c = compare(after, before)
    assert.equal(c.verdict, 'better')
    assert.deepEqual(c.scenarios.better.map((s) => s.id), ['s19'])
  })

  test('a broad drop is Worse by the stratified test alone', () => {
    const before = run(Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`s${i}`, outcomes(5, 5)])))
    const after = run(Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`s${i}`, outcomes(3, 5)])))
    const c = compare(before, after)
    assert.equal(c.overall.direction, 'worse')
    assert.equal(c.verdict, 'worse')
    assert.ok(c.overall.pWorse < 1e-6)
  })

  test('one scenario worse and the rest better is still Worse', () => {
    const ids = Array.from({ length: 10 }, (_, i) => `s${i}`)
    const before = run({ ...Object.fromEntries(ids.map((id) => [id, outcomes(1, 5)])), broken: outcomes(5, 5) })
    const after = run({ ...Object.fromEntries(ids.map((id) => [id, outcomes(5, 5)])), broken: outcomes(0, 5) })
    const c = compare(before, after)
    assert.equal(c.overall.direction, 'better')
    assert.equal(c.verdict, 'worse')
  })
})

describe('grouping scenarios', () => {
  test('each reason a scenario is not compared', () => {
    const before = run(
      { kept: 'PPP', gone: 'PPP', edited: 'PPP', moved: 'PPP', silent: 'PPP', unplayed: 'PPP', broke: 'PPP' },
      { scenarios: { edited: scenario('edited', { judge: ['The agent asked first'] }), moved: scenario('moved', { file: 'old/moved.yml' }) } },
    )
    const after = run(
      { kept: 'PFP', added: 'PPP', edited: 'PPP', moved: 'PPP', silent: 'NNN', unplayed: '', broke: 'NEN' },
      { scenarios: { edited: scenario('edited', { judge: ['The agent asked first', 'It was polite'] }), moved: scenario('moved', { file: 'new/moved.yml' }) } },
    )
    const c = compare(before, after)
    const reasons = Object.fromEntries(c.scenarios.notCompared.map((s) => [s.id, s.reason]))
    assert.deepEqual(reasons, { edited: 'edited', silent: 'no-verdict', unplayed: 'no-verdict', gone: 'only-before', added: 'only-after' })
    assert.deepEqual(c.scenarios.same.map((s) => s.id).sort(), ['broke', 'kept', 'moved'], 'a scenario whose file moved is the same scenario')
    assert.equal(c.overall.scenarios, 3)
    const silent = c.scenarios.notCompared.find((s) => s.id === 'silent')!
    assert.deepEqual([silent.after!.agentErrors, silent.after!.noVerdicts, silent.after!.judged], [0, 3, 0])
    // An agent error is a failed attempt: a scenario with one is compared, as 0 of 1.
    const broke = c.scenarios.same.find((s) => s.id === 'broke')!
    assert.deepEqual([broke.after.agentErrors, broke.after.noVerdicts, broke.after.judged, broke.after.passed], [1, 2, 1, 0])
    assert.equal(c.scenarios.notCompared.find((s) => s.id === 'gone')!.after, null)
    const kinds = c.warnings.map((w) => w.kind)
    assert.ok(kinds.includes('different-scenarios') && kinds.includes('edited-scenarios'))
  })

  test('Simpson’s paradox (stats.md §1): pooled rate rises, the scenario mean falls, the no-verdicts are noted', () => {
    const before = run({ hard: outcomes(2, 10), easy: outcomes(10, 10) })
    const after = run({ hard: 'FFF' + 'N'.repeat(7), easy: outcomes(10, 10) })
    const c = compare(before, after)
    assert.deepEqual([c.tiles.passed.before, c.tiles.passed.of!.before, c.tiles.passed.after, c.tiles.passed.of!.after], [12, 20, 10, 13])
    assert.ok(c.tiles.passed.after! / c.tiles.passed.of!.after > 0.76, 'pooled: 60% → 77%')
    assertClose(c.tiles.passRate.before!, 0.6, 1e-12)
    assertClose(c.tiles.passRate.after!, 0.5, 1e-12)
    assertClose(c.overall.change!, -0.1, 1e-12)
    assert.ok(c.overall.interval!.lower < -0.1 && c.overall.interval!.upper > -0.1, 'the interval is around the change reported')
    const hard = c.scenarios.same.find((s) => s.id === 'hard')!
    assertClose(hard.moreWithoutVerdict!.p, exactFisher(7, 10, 0, 10).greater, 1e-12)
    assert.equal(c.scenarios.same.find((s) => s.id === 'easy')!.moreWithoutVerdict, null)
    assert.equal(c.tiles.noVerdicts.tone, 'worse')
  })
})

describe('tiles', () => {
  test('answer time: the median per attempt of its mean time per answer, agent errors left out; tokens per attempt; cost; errors', () => {
    const turn = (role: 'user' | 'agent', seconds: number, error: string | null = null) => ({ role, text: '', seconds, tokens: null, error })
    const use = (costUsd: number | null) => ({ model: 'm', calls: 1, tries: 1, tokens: { input: 1, output: 1 }, seconds: 1, costUsd })
    const before: RunRecord = {
      manifest: manifest({ scenarios: [scenario('a')] }),
      attempts: [
        attempt('a', 1, 'passed', { turns: [turn('user', 9), turn('agent', 1), turn('agent', 3)], agentTokens: { input: 100, output: 10 }, models: { user: use(0.01), judge: use(0.02) } }),
        attempt('a', 2, 'agent_error', { turns: [turn('agent', 2), turn('agent', 60, 'timed out')], agentTokens: null }),
      ],
    }
    const after: RunRecord = {
      manifest: manifest({ scenarios: [scenario('a')] }),
      attempts: [attempt('a', 1, 'failed', { turns: [turn('agent', 4)], agentTokens: { input: 300, output: 30 } }), attempt('a', 2, 'passed', { agentTokens: { input: 100, output: 10 } })],
    }
    const { tiles } = compare(before, after)
    assert.deepEqual([tiles.medianAnswerSeconds.before, tiles.slowestAnswerSeconds.before], [2, 3])
    assert.deepEqual([tiles.medianAnswerSeconds.after, tiles.slowestAnswerSeconds.after], [2.5, 4])
    assert.deepEqual([tiles.tokensInPerAttempt.before, tiles.tokensInPerAttempt.after, tiles.tokensOutPerAttempt.after], [100, 200, 20])
    assertClose(tiles.costUsd.before!, 0.03, 1e-12)
    assert.equal(tiles.costUsd.after, null)
    assert.deepEqual([tiles.agentErrors.before, tiles.agentErrors.after, tiles.agentErrors.change], [1, 0, -1])
    assert.deepEqual([tiles.attempts.before, tiles.attempts.after], [2, 2])
    // The agent error before is a failed attempt, so scenario a was not stable before either.
    assert.deepEqual([tiles.stableScenarios.before, tiles.stableScenarios.after], [0, 0])
  })

  test('an agent that breaks everywhere is Worse: its errors are failed attempts', () => {
    const before = run({ a: 'PPPPP', b: 'PPPPP', c: 'PPPPP' })
    const after = run({ a: 'EEEEE', b: 'EEEEE', c: 'EEEEE' })
    const refused = 'turn 1: could not reach POST http://localhost:8080/chat: connect ECONNREFUSED 127.0.0.1:8080'
    after.attempts = after.attempts.map((a, i) => ({ ...a, error: i === 0 ? 'turn 2: HTTP 500 from the agent' : refused }))
    const c = compare(before, after)
    assert.equal(c.tiles.agentErrors.tone, 'worse')
    assert.deepEqual(c.warnings.map((w) => w.kind).sort(), ['more-agent-errors'])
    // The warning quotes what the agent said most often, without the turn it said it at.
    assert.equal(
      c.warnings[0]!.message,
      'The agent failed 15 of 15 attempts after, against 0 of 15 before; each counts as a failed attempt. Most often (14): could not reach POST http://localhost:8080/chat: connect ECONNREFUSED 127.0.0.1:8080',
    )
    assert.equal(c.overall.change, -1)
    assert.equal(c.verdict, 'worse')
    assert.deepEqual(c.scenarios.worse.map((s) => s.id), ['a', 'b', 'c'])
  })

  test('a steady agent error rate is noise; a rise in errors is Worse by the same tests', () => {
    const steady = (i: number) => Object.fromEntries(Array.from({ length: 10 }, (_, s) => [`s${s}`, s % 3 === i % 3 ? 'EPPPP' : 'PPPPP']))
    assert.equal(compare(run(steady(0)), run(steady(1))).verdict, 'within-noise')
    const rising = Object.fromEntries(Array.from({ length: 10 }, (_, s) => [`s${s}`, s < 8 ? 'EEEPP' : 'PPPPP']))
    const c = compare(run(steady(0)), run(rising))
    assert.equal(c.verdict, 'worse')
    assert.ok(c.scenarios.worse.length > 0, 'the scenarios that drove it are named')
  })
})

describe('warnings', () => {
  test('none for two comparable, recent, finished runs', () => {
    assert.deepEqual(compare(run({ a: 'PPP' }), run({ a: 'PPF' })).warnings, [])
  })

  test('different models, an old baseline, an unfinished or smoke run', () => {
    const before = run({ a: 'PPP' }, { manifest: { startedAt: '2026-02-01T10:00:00.000Z', finishedAt: '2026-02-01T10:05:00.000Z' } })
    const after = run({ a: 'PPP' }, {
      manifest: {
        models: { user: 'other-user', judge: 'other-judge', fingerprint: 'x', prices: {} },
        state: 'interrupted',
        settings: { ...manifest().settings, smoke: true },
        agent: { ...manifest().agent, name: 'bot2' },
      },
    })
    const warnings = compare(before, after).warnings
    assert.deepEqual(warnings.map((w) => w.kind), ['different-agent', 'different-user-model', 'different-judge-model', 'old-baseline', 'unfinished-run', 'smoke-run'])
    assert.match(warnings[3]!.message, /28 days old/)
    assert.match(warnings[1]!.message, /"user-model" to "other-user"/)
  })

  test('same model names with other settings; a baseline within the allowed age', () => {
    const before = run({ a: 'PPP' })
    const after = run({ a: 'PPP' }, { manifest: { models: { ...manifest().models, fingerprint: 'changed' } } })
    assert.deepEqual(compare(before, after).warnings.map((w) => w.kind), ['different-model-settings'])
    const old = run({ a: 'PPP' }, { manifest: { startedAt: '2026-02-20T00:00:00.000Z', finishedAt: null } })
    assert.deepEqual(compareRuns(tallyRecord(old), tallyRecord(run({ a: 'PPP' })), { now, maxAgeDays: 14 }).warnings, [])
    assert.deepEqual(compareRuns(tallyRecord(old), tallyRecord(run({ a: 'PPP' })), { now, maxAgeDays: 7 }).warnings.map((w) => w.kind), ['old-baseline'])
  })

  test('attempts of scenarios missing from run.json are left out and counted', () => {
    const after = run({ a: 'PPP' })
    const c = compare(run({ a: 'PPP' }), { ...after, attempts: [...after.attempts, attempt('ghost', 1, 'failed')] })
    assert.equal(c.after.attempts, 3)
    assert.deepEqual(c.warnings.map((w) => w.kind), ['unknown-scenarios'])
  })
})

describe('the comparison as data', () => {
  test('survives JSON unchanged', () => {
    const { before, after } = runsOf(exampleB)
    const c = compare(before, after)
    assert.deepEqual(JSON.parse(JSON.stringify(c)), c)
  })

  test('the sensitivity: k, verdicts per run, the detectable drop and the single-scenario floor', () => {
    const { before, after } = runsOf(exampleA)
    const { sensitivity } = compare(before, after)
    assert.equal(sensitivity.attemptsPerScenario, 5)
    assert.equal(sensitivity.attemptsPerRun, 100)
    assertClose(sensitivity.baselineRate!, 0.89, 1e-12)
    // At the overall test's one-sided 0.01, for the exact tests' attempts (a 1.4th of them: bench:gate checks the claim).
    assert.equal(Math.round(sensitivity.detectableDrop! * 100), 21)
    // With the correction applied here (0.02 over 1 testable scenario), only 5/5 → 0/5 registers.
    assertClose(sensitivity.scenarioThreshold, 0.02, 1e-12)
    assert.equal(sensitivity.flaggableScenarioDrop, 0)
    assert.equal(sensitivity.singleScenarioCanRegister, true)
  })

  // How long it takes is for bench/report.ts to measure (a timed test fails when the machine is busy);
  // here, that a run of 10,000 attempts is compared whole: every scenario lands in exactly one group.
  test('10,000 attempts a run are compared whole: every scenario in exactly one group', () => {
    const layout = (shift: number) => Object.fromEntries(Array.from({ length: 2000 }, (_, i) => [`scenario-${i}`, outcomes((i * 7 + shift) % 6, 5)]))
    const c = compare(run(layout(0)), run(layout(1)))
    assert.equal(c.before.attempts, 10_000)
    assert.equal(c.after.attempts, 10_000)
    const ids = [...c.scenarios.worse, ...c.scenarios.better, ...c.scenarios.same, ...c.scenarios.notCompared].map((s) => s.id)
    assert.equal(ids.length, 2000)
    assert.equal(new Set(ids).size, 2000)
  })
})
