import assert from 'node:assert/strict'
import { getEventListeners } from 'node:events'
import { test } from 'node:test'
import { withDeadline } from '../../src/base/shared/deadline.ts'

const late = () => new Error('time is up')

test('the time runs out: the signal aborts with the reason given, and says it expired', async () => {
  const parent = new AbortController()
  const deadline = withDeadline(parent.signal, 5, late)
  await new Promise((done) => deadline.signal.addEventListener('abort', done, { once: true }))
  assert.equal(deadline.expired, true)
  assert.equal((deadline.signal.reason as Error).message, 'time is up')
  assert.equal(parent.signal.aborted, false, 'the parent is not touched')
  deadline.end()
})

test('the parent aborts first: the signal aborts with the parent’s reason, and the time did not expire', () => {
  const parent = new AbortController()
  const deadline = withDeadline(parent.signal, 60_000, late)
  parent.abort(new Error('Ctrl+C'))
  assert.equal(deadline.signal.aborted, true)
  assert.equal((deadline.signal.reason as Error).message, 'Ctrl+C')
  assert.equal(deadline.expired, false)
  deadline.end()
})

test('a parent aborted already gives a signal aborted already', () => {
  const parent = new AbortController()
  parent.abort(new Error('gone'))
  const deadline = withDeadline(parent.signal, 60_000, late)
  assert.equal(deadline.signal.aborted, true)
  assert.equal((deadline.signal.reason as Error).message, 'gone')
  deadline.end()
})

test('after end(), neither the parent nor the time aborts the signal', async () => {
  const parent = new AbortController()
  const deadline = withDeadline(parent.signal, 5, late)
  deadline.end()
  parent.abort(new Error('later'))
  await new Promise((done) => setTimeout(done, 20))
  assert.equal(deadline.signal.aborted, false)
  assert.equal(deadline.expired, false)
})

test('a thousand deadlines on one parent leave it one listener, and none once they end', () => {
  const parent = new AbortController()
  const deadlines = Array.from({ length: 1000 }, () => withDeadline(parent.signal, 60_000, late))
  // Node warns past ten listeners on a signal: the run's one signal gets one, however many requests wait.
  assert.equal(getEventListeners(parent.signal, 'abort').length, 1)
  for (const d of deadlines) d.end()
  parent.abort(new Error('after'))
  assert.equal(deadlines.filter((d) => d.signal.aborted).length, 0)
})
