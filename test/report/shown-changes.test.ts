import assert from 'node:assert/strict'
import { test } from 'node:test'
import { percent, points, seconds, secondsChange, shownChange, shownRate, shownSeconds } from '../../src/views/page/format.ts'

// A change is what a reader computes from the two figures beside it (issue 35: "105 → 92, −14").
test('a change is the difference of the figures as shown, not of the values behind them', () => {
  const time = shownChange({ before: 0.1054, after: 0.0915, change: 0.0915 - 0.1054 }, shownSeconds)
  assert.deepEqual([seconds(0.1054), seconds(0.0915), secondsChange(time.change!)], ['0.1 s', '92 ms', '−8 ms'])

  const fast = shownChange({ before: 0.0954, after: 0.0915, change: 0.0915 - 0.0954 }, shownSeconds)
  assert.deepEqual([seconds(0.0954), seconds(0.0915), secondsChange(fast.change!)], ['95 ms', '92 ms', '−3 ms'])

  const rate = shownChange({ before: 2 / 3, after: 0.5, change: 0.5 - 2 / 3 }, shownRate)
  assert.deepEqual([percent(2 / 3), percent(0.5), points(rate.change!)], ['67%', '50%', '−17 pp'])
  // Unrounded, it was −16.7 pp beside 67% → 50%.
  assert.equal(points(0.5 - 2 / 3), '−16.7 pp')

  const seconds5 = shownChange({ before: 1.04, after: 2.26, change: 1.22 }, shownSeconds)
  assert.deepEqual([seconds(1.04), seconds(2.26), secondsChange(seconds5.change!)], ['1.0 s', '2.3 s', '+1.3 s'])

  const none = { before: null, after: 0.2, change: null }
  assert.equal(shownChange(none, shownSeconds), none)
})
