import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { fillTemplate } from '../../src/play/agents/protocols/body-template.ts'
import { lookupPath } from '../../src/play/agents/dotted-path.ts'
import { readAnswer } from '../../src/play/agents/protocols/json-http.ts'

describe('body templates', () => {
  const history = [
    { role: 'user' as const, content: 'hi' },
    { role: 'assistant' as const, content: 'hello' },
    { role: 'user' as const, content: 'where is {text}?' },
  ]
  const values = { text: 'say "{session}" please', session: 's-1', history, context: {} }

  test('fills {text} and {session} inside any string at any depth, and leaves other JSON values alone', () => {
    const template = { a: { b: ['{text}', 'id={session}/{session}', 3, null, false] }, keep: 'no placeholder', '{text}': 1 }
    assert.deepEqual(fillTemplate(template, values), {
      a: { b: ['say "{session}" please', 'id=s-1/s-1', 3, null, false] },
      keep: 'no placeholder',
      '{text}': 1,
    })
  })

  test('a user message that contains a placeholder is sent as written', () => {
    assert.equal(fillTemplate('{text}', values), 'say "{session}" please')
  })

  test('a string that is exactly "{history}" becomes the message list; inside a longer string it stays text', () => {
    const filled = fillTemplate({ messages: '{history}', note: 'see {history}' }, values) as { messages: unknown; note: unknown }
    assert.deepEqual(filled.messages, history)
    assert.equal(filled.note, 'see {history}')
  })

  test('history entries carry only role and content', () => {
    const extra = [{ role: 'user' as const, content: 'x', secret: 'no' }]
    assert.deepEqual(fillTemplate('{history}', { ...values, history: extra }), [{ role: 'user', content: 'x' }])
  })
})

describe('dotted paths', () => {
  const answer = { choices: [{ message: { content: 'hey' } }], data: { '0': 'zero', empty: {} }, n: 0 }

  test('numeric segments index arrays, other segments name keys (numeric keys of objects too)', () => {
    assert.deepEqual(lookupPath(answer, 'choices.0.message.content'), { found: true, value: 'hey' })
    assert.deepEqual(lookupPath(answer, 'data.0'), { found: true, value: 'zero' })
    assert.deepEqual(lookupPath(answer, 'n'), { found: true, value: 0 })
  })

  test('a missing step says where the path broke and what was there', () => {
    const problem = (root: unknown, path: string) => {
      const result = lookupPath(root, path)
      assert.equal(result.found, false)
      return result.found ? '' : result.problem
    }
    assert.equal(problem(answer, 'data.answer'), '"data" has no key "answer" (it has: 0, empty)')
    assert.equal(problem(answer, 'data.empty.x'), '"data.empty" has no key "x" (it is empty)')
    assert.equal(problem(answer, 'choices.3.message'), '"choices" has 1 item(s), so no index 3')
    assert.equal(problem(answer, 'choices.first'), '"choices" is an array, and "first" is not an index')
    assert.equal(problem(answer, 'n.value'), '"n" is a number, not an object or array')
    assert.equal(problem(null, 'a'), 'the answer is null, not an object or array')
  })

  test('reply must be a string; token counts that are absent leave usage unknown', () => {
    assert.deepEqual(readAnswer({ r: 'ok', u: { i: 3 } }, { reply: 'r', tokens: ['u.i', 'u.o'] }), { text: 'ok', usage: { input: 3, output: undefined } })
    assert.deepEqual(readAnswer({ r: 'ok' }, { reply: 'r', tokens: ['u.i', 'u.o'] }), { text: 'ok' })
    assert.throws(() => readAnswer({ r: 42 }, { reply: 'r', tokens: undefined }), /no reply text at "r": it is 42, not a string/)
  })
})
