import assert from 'node:assert/strict'
import { test } from 'node:test'
import { z } from 'zod'
import { readCompletion } from '../../src/adapters/model-client/openai-chat-client.ts'

// The shape convy-ci reads, as a schema: readCompletion checks it by hand (it runs on every call) and
// must accept and refuse exactly what this accepts and refuses.
const CompletionSchema = z.object({
  choices: z
    .array(z.object({ message: z.object({ content: z.string().nullish(), refusal: z.string().nullish() }), finish_reason: z.string().nullish() }))
    .min(1),
  usage: z.object({ prompt_tokens: z.number().nullish(), completion_tokens: z.number().nullish() }).nullish(),
})

const message = { role: 'assistant', content: 'Hi', refusal: null }
const bodies: unknown[] = [
  { id: 'x', object: 'chat.completion', choices: [{ index: 0, message, finish_reason: 'stop' }], usage: { prompt_tokens: 3, completion_tokens: 1, total_tokens: 4 } },
  { choices: [{ message: {} }] },
  { choices: [{ message: { content: null, refusal: 'no' }, finish_reason: null }], usage: null },
  { choices: [{ message: { content: 'a' } }, { message: { content: 'b' } }] },
  { choices: [{ message: { content: 'a' } }, { message: { content: 2 } }] },
  { choices: [] },
  { choices: {} },
  { choices: [{}] },
  { choices: [{ message: null }] },
  { choices: [{ message: [] }] },
  { choices: [{ message: { content: 5 } }] },
  { choices: [{ message: { refusal: false } }] },
  { choices: [{ message, finish_reason: 1 }] },
  { choices: [{ message }], usage: { prompt_tokens: '3' } },
  { choices: [{ message }], usage: { completion_tokens: null } },
  { choices: [{ message }], usage: [] },
  { choices: [{ message }], usage: 'none' },
  { result: 'ok', note: 'this is not a chat completion' },
  [],
  null,
  undefined,
  '<html>502</html>',
  42,
]

test('readCompletion accepts and refuses what the schema of a chat completion does', () => {
  for (const body of bodies) {
    const expected = CompletionSchema.safeParse(body).success
    assert.equal(readCompletion(body) !== undefined, expected, `${JSON.stringify(body)}: the schema says ${expected ? 'a completion' : 'not one'}`)
  }
})

test('what it reads is the body itself: content, refusal, finish reason and usage', () => {
  const body = { choices: [{ message: { content: 'Hello', refusal: null }, finish_reason: 'length' }], usage: { prompt_tokens: 7, completion_tokens: 2 } }
  const completion = readCompletion(body)
  assert.equal(completion?.choices[0]?.message.content, 'Hello')
  assert.equal(completion?.choices[0]?.finish_reason, 'length')
  assert.deepEqual(completion?.usage, { prompt_tokens: 7, completion_tokens: 2 })
})
