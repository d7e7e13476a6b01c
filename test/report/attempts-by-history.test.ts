import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { attemptsByHistory, HISTORY_RULE_PARAMETERS, planOf, planWords } from '../../src/records/tally/attempts-by-history.ts'
import type { History } from '../../src/records/tally/trend.ts'
import type { RunSummary } from '../../src/records/tally/run-summary.ts'

/** The rule that plans a baseline run's attempts from the branch's history (issue 39 item 2), with its figures. */
const numbers = { plain: 10, floor: 5 }
const clean = { passed: 9, judged: 9 }
const failedOne = { passed: 8, judged: 9 }

describe('attempts from the history', () => {
  test('the numbers are the ones bench:baseline chose', () => {
    assert.deepEqual(HISTORY_RULE_PARAMETERS, { stableRuns: 8, stableAttempts: 7, flakyRuns: 2, window: 5, flakyFactor: 1.5 })
  })

  test('stable: no decided attempt failed in the newest 8 runs in a row → 7', () => {
    assert.deepEqual(planOf(Array(8).fill(clean), numbers), { attempts: 7, reason: 'stable', runs: 8 })
    // A failure nine runs back does not count; one in the newest eight does.
    assert.deepEqual(planOf([...Array(8).fill(clean), failedOne], numbers), { attempts: 7, reason: 'stable', runs: 8 })
    assert.deepEqual(planOf([...Array(7).fill(clean), failedOne], numbers), { attempts: 10, reason: 'plain', runs: 8 })
  })

  test('seven clean runs are not enough history: the plain baseline-attempts', () => {
    assert.deepEqual(planOf(Array(7).fill(clean), numbers), { attempts: 10, reason: 'plain', runs: 7 })
    assert.deepEqual(planOf([], numbers), { attempts: 10, reason: 'plain', runs: 0 })
  })

  test('flaky: failed a decided attempt in 2 of the newest 5 runs → 15; once is not flaky', () => {
    assert.deepEqual(planOf([clean, failedOne, clean, failedOne, clean, clean], numbers), { attempts: 15, reason: 'flaky', runs: 2 })
    assert.deepEqual(planOf([clean, failedOne, clean, clean, clean, failedOne], numbers), { attempts: 10, reason: 'plain', runs: 6 })
    // Fewer than 5 runs: not enough to call it flaky.
    assert.deepEqual(planOf([failedOne, failedOne, failedOne], numbers), { attempts: 10, reason: 'plain', runs: 3 })
  })

  test('a scenario that never passed in the window is broken, not flaky: the plain number', () => {
    assert.equal(planOf(Array(5).fill({ passed: 0, judged: 9 }), numbers).reason, 'plain')
  })

  test('never under the pull request attempts, and a stable scenario never over the plain number', () => {
    assert.equal(planOf(Array(8).fill(clean), { plain: 10, floor: 8 }).attempts, 8)
    assert.equal(planOf(Array(8).fill(clean), { plain: 6, floor: 5 }).attempts, 6)
    // A flaky scenario plays 1.5 times the plain number, rounded up.
    assert.equal(planOf(Array(5).fill(failedOne), { plain: 20, floor: 5 }).attempts, 30)
    assert.equal(planOf(Array(5).fill(failedOne), { plain: 5, floor: 5 }).attempts, 8)
  })

  test("the history: other agents' runs and a run listed twice are left out; runs without a verdict for the scenario are skipped", () => {
    const run = (i: number, agent: string, scenarios: RunSummary['scenarios']): History['entries'][number] => ({
      workflowRun: i,
      summary: { format: 1, run: `${agent}/r${i}`, agent, commit: null, branch: 'main', startedAt: `2026-03-${String(10 + i).padStart(2, '0')}T00:00:00.000Z`, finishedAt: null, state: 'finished', k: 10, scenarios, medianAnswerSeconds: null, costUsd: null },
    })
    const s = (id: string, passed: number, judged: number) => ({ id, attempts: 10, passed, judged, errors: 10 - judged, noVerdicts: 0, medianAnswerSeconds: null, costUsd: null })
    const entries = [
      ...Array.from({ length: 8 }, (_, i) => run(i, 'bot', [s('a', 9, 9), s('b', 0, 0)])),
      run(3, 'bot', [s('a', 9, 9)]),
      run(20, 'other', [s('a', 0, 9)]),
    ]
    const plans = attemptsByHistory({ branch: 'main', entries }, 'bot', ['a', 'b', 'c'], numbers)
    assert.deepEqual(plans.get('a'), { attempts: 7, reason: 'stable', runs: 8 })
    // b had agent errors only: no decided attempt in any run.
    assert.deepEqual(plans.get('b'), { attempts: 10, reason: 'plain', runs: 0 })
    assert.deepEqual(plans.get('c'), { attempts: 10, reason: 'plain', runs: 0 })
    assert.deepEqual([...attemptsByHistory(null, 'bot', ['a'], numbers).values()], [{ attempts: 10, reason: 'plain', runs: 0 }])
  })

  test('in words', () => {
    assert.equal(planWords({ attempts: 7, reason: 'stable', runs: 8 }), 'stable in 8 runs: 7')
    assert.equal(planWords({ attempts: 15, reason: 'flaky', runs: 3 }), 'flaky (failed in 3 of 5 runs): 15')
    assert.equal(planWords({ attempts: 10, reason: 'plain', runs: 1 }), '10 (1 run of history)')
  })
})
