import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { readInputs } from '../../src/entry/action/inputs.ts'
import { InputErrors } from '../../src/base/shared/errors.ts'

/** The action's fail-on-slower and fail-on-costlier inputs: off unless given, a percentage, errors naming the input. */
const read = (inputs: Record<string, string>) => readInputs((name) => ({ agent: 'bot', ...inputs })[name] ?? '')

describe('action inputs fail-on-slower and fail-on-costlier', () => {
  test('off by default; a percentage when given, 0 and fractions included', () => {
    assert.deepEqual([read({}).failOnSlower, read({}).failOnCostlier], [null, null])
    const given = read({ 'fail-on-slower': '50', 'fail-on-costlier': ' 12.5 ' })
    assert.deepEqual([given.failOnSlower, given.failOnCostlier], [50, 12.5])
    assert.equal(read({ 'fail-on-slower': '0' }).failOnSlower, 0)
  })

  test('a wrong value is reported by the input’s name, with what was given, both at once', () => {
    assert.throws(
      () => read({ 'fail-on-slower': 'fast', 'fail-on-costlier': '-10' }),
      (error: unknown) => {
        assert.ok(error instanceof InputErrors)
        const messages = error.problems.map((e) => e.message)
        assert.deepEqual(messages, [
          'input fail-on-slower "fast": expected a percentage, 0 or more (50: fail on a significant change of 1.5 × or more)',
          'input fail-on-costlier "-10": expected a percentage, 0 or more (50: fail on a significant change of 1.5 × or more)',
        ])
        return true
      },
    )
  })
})
