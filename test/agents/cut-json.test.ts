import assert from 'node:assert/strict'
import { test } from 'node:test'
import { cutJsonStrings } from '../../src/play/agents/cut-json.ts'
import { cutReply } from '../../src/play/agents/reply-limit.ts'

// cut-json.ts against cutReply, the rule it reads ahead of: the same strings kept, the same marks,
// whatever the chunks the body arrives in.

const read = (json: string, maxBytes: number, chunkSize: number) => {
  const reader = cutJsonStrings(maxBytes)
  const bytes = Buffer.from(json)
  for (let at = 0; at < bytes.length; at += chunkSize) reader.push(bytes.subarray(at, at + chunkSize))
  return { value: JSON.parse(Buffer.from(reader.end()).toString()) as unknown, kept: reader.size }
}

const cutEveryString = (value: unknown, maxBytes: number): unknown => {
  if (typeof value === 'string') return cutReply(value, maxBytes)
  if (Array.isArray(value)) return value.map((item) => cutEveryString(item, maxBytes))
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, cutEveryString(v, maxBytes)]))
  return value
}

test('strings past the limit are cut between characters and escapes, marked with their full size, in any chunking', () => {
  const answer = {
    reply: `caf\u00e9 "quoted" \\ back\nslash ☕ 🙂 `.repeat(7),
    short: 'kept as it is',
    escaped: 'a\u00e9\u2615\n'.repeat(9),
    list: [1, true, null, { nested: 'é'.repeat(40) }],
  }
  // JSON.stringify writes é and ☕ raw; the same text with \u escapes is read the same way.
  const raw = JSON.stringify(answer)
  const escapes = raw.replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
  for (const maxBytes of [1, 5, 16, 33, 64, 1000]) {
    for (const json of [raw, escapes]) {
      for (const chunkSize of [1, 2, 3, 7, 4096]) {
        const { value } = read(json, maxBytes, chunkSize)
        assert.deepEqual(value, cutEveryString(answer, maxBytes), `max ${maxBytes}, chunks of ${chunkSize}`)
      }
    }
  }
})

test('70 MiB in one string are kept to the limit; the mark says how large it was', () => {
  const reader = cutJsonStrings(1024)
  reader.push(Buffer.from('{"answer":"'))
  const mebibyte = Buffer.alloc(2 ** 20, 'y')
  for (let i = 0; i < 70; i++) reader.push(mebibyte)
  reader.push(Buffer.from('","tokens":3}'))
  assert.ok(reader.size < 2048, `kept ${reader.size} bytes`)
  const value = JSON.parse(Buffer.from(reader.end()).toString()) as { answer: string; tokens: number }
  assert.equal(value.tokens, 3)
  assert.equal(value.answer, `${'y'.repeat(1024)}\n[cut by convy-ci: the answer was 73,400,320 bytes; the first 1,024 are kept (max_reply_kb)]`)
  assert.equal(cutReply(value.answer, 1024), value.answer, 'cut once, not again')
})
