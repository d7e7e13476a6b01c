import assert from 'node:assert/strict'
import { test } from 'node:test'
import { runChecks } from '../../src/play/judge/checks.ts'
import { compilePattern, loadPatterns, MAX_PATTERN_STEPS } from '../../src/records/scenario/pattern.ts'

// 1 MiB of what the slow pattern's first repeat keeps matching: every one of its steps stays alive
// at every character, so the match takes far longer than the budget (about 20 s measured alone).
const LARGE = `${'x'.repeat(1024 * 1024 - 20)} order 12345 shipped`
const SLOW = 'x{2,400}y{2,80}'

test('repeats that multiply past the limit are refused when the pattern is compiled, saying why', async () => {
  await loadPatterns()
  assert.throws(() => compilePattern('x{2,1000}y{2,1000}z{2,1000}'), new RegExp(`compiles to \\d+ steps, past the limit of ${MAX_PATTERN_STEPS}`))
  assert.throws(() => compilePattern('(x{1,100}){1,10}y'), /counts inside counts multiply/)
  assert.ok(compilePattern(SLOW).steps <= MAX_PATTERN_STEPS, 'the slow pattern is one a user may write')
  assert.ok(compilePattern('order #\\d{5}|.{0,200}').steps <= MAX_PATTERN_STEPS)
})

test('a large answer is matched in a worker: found, not found, and past the deadline a failed check', async () => {
  // The patterns that match in milliseconds have the product's budget, so a busy machine cannot push
  // them past it; the slow one (about 20 s) a short one, so the test is short: the budget is a
  // parameter, the same code path.
  const quick = await runChecks(
    [
      { kind: 'regex', value: 'order \\d{5}' },
      { kind: 'regex', value: 'refund' },
      { kind: 'contains', value: 'shipped' },
    ],
    ['hello', LARGE],
  )
  assert.deepEqual(quick.map((r) => [r.pass, r.detail]), [
    [true, 'answer 2 matches it'],
    [false, 'none of the 2 answers matches it'],
    [true, 'answer 2 contains it'],
  ])
  const slow = await runChecks([{ kind: 'regex', value: SLOW }], ['hello', LARGE], [], { budgetSeconds: 1 })
  assert.deepEqual(slow.map((r) => [r.pass, r.detail]), [[false, "the check's pattern took too long (1.0 s on 2 answers; the limit is 1 s)"]])
})

test('while a worker matches, the event loop runs and an interruption stops the check at once', async () => {
  const controller = new AbortController()
  let ticks = 0
  const ticker = setInterval(() => {
    ticks++
    if (ticks === 5) controller.abort(new Error('interrupted'))
  }, 20)
  // The budget is out of reach, so only the match (about 20 s) or the interruption can end the check.
  await assert.rejects(runChecks([{ kind: 'regex', value: SLOW }], [LARGE], [], { signal: controller.signal, budgetSeconds: 3600 }), (error: Error) => error.message === 'interrupted')
  const afterwards = ticks
  clearInterval(ticker)
  // Five ticks ran while the worker matched, and none between the abort (in the fifth) and the
  // rejection: the check stopped at once, not when the match ended.
  assert.equal(afterwards, 5, 'the timers ran while the pattern was matched, and the check stopped at the abort')
})
