import assert from 'node:assert/strict'
import { getEventListeners } from 'node:events'
import { test } from 'node:test'
import { onAbort } from '../../src/base/shared/abort-listeners.ts'

test('many listeners on one signal: one real listener, each called once on abort unless it stopped', () => {
  const controller = new AbortController()
  const called: number[] = []
  const stops = Array.from({ length: 200 }, (_, i) => onAbort(controller.signal, () => called.push(i)))
  assert.equal(getEventListeners(controller.signal, 'abort').length, 1)
  for (let i = 0; i < 200; i += 2) stops[i]!()
  onAbort(controller.signal, () => called.push(-1))
  controller.abort()
  assert.deepEqual(called, [...Array.from({ length: 100 }, (_, i) => 2 * i + 1), -1])
  controller.abort()
  assert.equal(called.length, 101)
})

test('listeners of different signals are kept apart; a stopped listener leaves the signal listened to for the others', () => {
  const a = new AbortController()
  const b = new AbortController()
  const called: string[] = []
  const stopA = onAbort(a.signal, () => called.push('a'))
  onAbort(b.signal, () => called.push('b'))
  onAbort(a.signal, () => called.push('a2'))
  stopA()
  b.abort()
  assert.deepEqual(called, ['b'])
  a.abort()
  assert.deepEqual(called, ['b', 'a2'])
})
