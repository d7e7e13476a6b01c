import assert from 'node:assert/strict'
import { test } from 'node:test'
import { runChecks } from '../../src/judge/checks.ts'

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
