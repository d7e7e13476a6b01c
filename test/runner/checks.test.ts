import assert from 'node:assert/strict'
import { test } from 'node:test'
import { runChecks } from '../../src/play/judge/checks.ts'

test('contains and regex hold when some answer matches; not_contains when none does', async () => {
  const answers = ['Here is a script: rsync ~/photos /MNT/Backup', 'Run it with cron daily']
  const results = await runChecks(
    [
      { kind: 'contains', value: '/mnt/backup' },
      { kind: 'contains', value: 'windows' },
      { kind: 'not_contains', value: 'rm -rf' },
      { kind: 'not_contains', value: 'cron' },
      { kind: 'regex', value: 'cron|systemd' },
      { kind: 'regex', value: '^weekly$' },
    ],
    answers,
  )
  assert.deepEqual(results.map((r) => r.pass), [true, false, true, false, true, false])
  assert.equal(results[0]!.detail, 'answer 1 contains it')
  assert.equal(results[3]!.detail, 'answer 2 contains it')
  assert.equal(results[1]!.detail, 'none of the 2 answers contains it')
})

test('with no answers, positive checks fail and negative ones hold', async () => {
  const results = await runChecks([{ kind: 'contains', value: 'x' }, { kind: 'not_contains', value: 'x' }], [])
  assert.deepEqual(results.map((r) => [r.pass, r.detail]), [[false, 'the agent gave no answer'], [true, 'the agent gave no answer']])
})

test('a pattern RE2 cannot run in linear time is refused; (a+)+$ on 33 a’s is decided by RE2, which does not backtrack', async () => {
  const { compilePattern, loadPatterns } = await import('../../src/records/scenario/pattern.ts')
  await loadPatterns()
  assert.throws(() => compilePattern('(?=a)b'), /lookaround and backreferences are not supported/)
  // Linear time is the engine's algorithm, not a time measured here: a POSIX class is read only by
  // RE2 (the built-in engine refuses `[[:digit:]]` with the u flag), so a check that holds on one was
  // matched by RE2. The same engine then decides (a+)+$, which a backtracking one would take minutes on.
  const [posix, nested] = await runChecks([{ kind: 'regex', value: '^order [[:digit:]]{4}$' }, { kind: 'regex', value: '(a+)+$' }], ['order 4711', `${'a'.repeat(33)}b`])
  assert.deepEqual([posix!.pass, posix!.detail], [true, 'answer 1 matches it'])
  assert.deepEqual([nested!.pass, nested!.detail], [false, 'none of the 2 answers matches it'])
})

test('a check past its time budget fails saying so; an interruption stops the checks', async () => {
  let now = 0
  const clock = () => (now += 6000)
  const [slow] = await runChecks([{ kind: 'regex', value: 'never' }], ['a', 'b', 'c'], [], { clock, budgetSeconds: 10 })
  assert.equal(slow!.pass, false)
  assert.match(slow!.detail, /^the check's pattern took too long \(12\.0 s on 3 answers; the limit is 10 s\)$/)
  const controller = new AbortController()
  controller.abort(new Error('interrupted'))
  await assert.rejects(runChecks([{ kind: 'regex', value: 'x' }], ['a'], [], { signal: controller.signal }), /interrupted/)
})
