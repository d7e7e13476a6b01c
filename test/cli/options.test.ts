import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { readCommandArgs } from '../../src/entry/cli/args.ts'
import { InputError, InputErrors } from '../../src/base/shared/errors.ts'
import { readActionInputs } from '../../src/entry/options/action-inputs.ts'

/** The messages of what readCommandArgs threw (every problem at once). */
function problems(read: () => unknown): string[] {
  try {
    read()
  } catch (error) {
    assert.ok(error instanceof InputError, String(error))
    return error instanceof InputErrors ? error.problems.map((p) => p.message) : [error.message]
  }
  return assert.fail('no error')
}

// Issue 37: `--budget-usd -1` answered "expected a number of seconds"; the gate flags were parsed
// twice; `--fail-on-inconclusive` was declared and never read. Every command reads its flags by the
// option table now (src/entry/options/), with the flag and its unit in each message.
describe("a command's flags, read by the option table", () => {
  test('a wrong value names the flag, what was given and the unit expected; a negative number is a value', () => {
    assert.deepEqual(problems(() => readCommandArgs('run', ['bot', '--budget-usd', '-1'])), ['--budget-usd -1: expected an amount of dollars above 0'])
    assert.deepEqual(problems(() => readCommandArgs('resume', ['a1b2', '--budget-usd=0'])), ['--budget-usd 0: expected an amount of dollars above 0'])
    assert.deepEqual(problems(() => readCommandArgs('run', ['bot', '--turn-timeout', 'soon'])), ['--turn-timeout soon: expected a number of seconds above 0'])
    assert.deepEqual(problems(() => readCommandArgs('compare', ['a', 'b', '--max-age-days', '-3'])), ['--max-age-days -3: expected a number of days above 0'])
    assert.deepEqual(problems(() => readCommandArgs('compare', ['a', 'b', '--min-speed-change', '-5'])), ['--min-speed-change -5: expected a number of milliseconds, 0 or more (50: changes of answer time under 50 ms are never told)'])
  })

  test('every wrong flag is said at once', () => {
    assert.deepEqual(problems(() => readCommandArgs('run', ['bot', '-k', '0', '--parallel', 'many', '--cache', 'sometimes', '--shard', '3/2'])), [
      '-k 0: expected a whole number from 1 to 1000',
      '--parallel many: expected a whole number from 1 to 1000',
      '--shard 3/2: expected I/N with 1 ≤ I ≤ N, e.g. 1/4',
      '--cache sometimes: expected one of off, read, write, readwrite',
    ])
  })

  test('defaults apply, lists add up, and "given" tells a default from a flag', () => {
    const { values, given, positionals } = readCommandArgs('run', ['a', 'b', '--tags', 'x,y', '--tags', 'z', '-k', '3'])
    assert.deepEqual(positionals, ['a', 'b'])
    assert.deepEqual([values.attempts, values.parallel, values.turnTimeout, values.cache, values.budgetUsd, values.review], [3, 4, 600, 'off', undefined, undefined])
    assert.deepEqual(values.tags, ['x', 'y', 'z'])
    assert.deepEqual([...given].sort(), ['attempts', 'tags'])
    assert.equal(readCommandArgs('run', ['a', '--no-review']).values.review, false)
  })

  test('--fail-on-inconclusive is read: the default, and it contradicts --no-fail-on-inconclusive', () => {
    assert.equal(readCommandArgs('compare', ['a', 'b']).values.failOnInconclusive, true)
    assert.equal(readCommandArgs('compare', ['a', 'b', '--fail-on-inconclusive']).values.failOnInconclusive, true)
    assert.equal(readCommandArgs('publish', ['a', '--no-fail-on-inconclusive']).values.failOnInconclusive, false)
    assert.deepEqual(problems(() => readCommandArgs('compare', ['a', 'b', '--fail-on-inconclusive', '--no-fail-on-inconclusive'])), [
      'convy-ci compare: --fail-on-inconclusive and --no-fail-on-inconclusive contradict each other; give one',
    ])
  })

  test('an unknown flag gets a did-you-mean, and a flag of another command is unknown here', () => {
    assert.deepEqual(problems(() => readCommandArgs('run', ['bot', '--paralel', '2'])), ['convy-ci run: unknown option --paralel — did you mean --parallel? (see convy-ci run --help)'])
    assert.match(problems(() => readCommandArgs('report', ['--fail-on', 'worse']))[0]!, /^convy-ci report: unknown option --fail-on/)
  })

  test('the action reads the same kinds under its input names, every problem at once', () => {
    assert.deepEqual(problems(() => readActionInputs((name) => ({ 'budget-usd': '-1', 'min-speed-change': 'fast', 'turn-timeout': '0' })[name] ?? '')), [
      'input agent is required: name at least one agent',
      'input turn-timeout "0": expected a number of seconds above 0',
      'input budget-usd "-1": expected an amount of dollars above 0',
      'input min-speed-change "fast": expected a number of milliseconds, 0 or more (50: changes of answer time under 50 ms are never told)',
    ])
  })
})
