import assert from 'node:assert/strict'
import { test } from 'node:test'
import { missingReplays, replayOf } from '../../src/play/runner/replay-user-errors.ts'
import { attempt, scenario } from '../compare/run-builder.ts'

const help = scenario('help')
const scenarios = new Map([['help', help]])

test('a user_error attempt is replayed once, numbered k after it; nothing else is', () => {
  assert.deepEqual(replayOf({ scenario: help, attempt: 2 }, attempt('help', 2, 'user_error'), 5), { scenario: help, attempt: 7, replayOf: 2 })
  assert.equal(replayOf({ scenario: help, attempt: 2 }, attempt('help', 2, 'failed'), 5), null)
  assert.equal(replayOf({ scenario: help, attempt: 7, replayOf: 2 }, attempt('help', 7, 'user_error'), 5), null, 'a replay is never replayed')
  assert.equal(replayOf({ scenario: help, attempt: 2, userLines: ['hi'] }, attempt('help', 2, 'user_error'), 5), null, "a replay of recorded lines (convy-ci replay) is not the review's to replay")
})

test('resume owes the replays of recorded user_error attempts whose replay is not recorded', () => {
  const recorded = [attempt('help', 1, 'user_error'), attempt('help', 3, 'user_error'), attempt('help', 6, 'failed', { replayOf: 1 }), attempt('gone', 2, 'user_error')]
  assert.deepEqual(missingReplays(recorded, scenarios, 5), [{ scenario: help, attempt: 8, replayOf: 3 }])
})
