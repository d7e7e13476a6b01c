import assert from 'node:assert/strict'
import { test } from 'node:test'
import fc from 'fast-check'
import { forPage } from '../../src/base/shared/invisible.ts'
import { createMask, MASKED } from '../../src/base/shared/secrets.ts'
import { neutralise } from '../../src/views/markdown/neutralise.ts'

const SECRET = 'Cn4ry-s3cret&key'
const mask = createMask([SECRET])
const bytes = Buffer.from(SECRET)
const each = (f: (c: string) => string) => [...SECRET].map(f).join('')
const hex2 = (c: string) => c.charCodeAt(0).toString(16).padStart(2, '0')

test('a secret split by an invisible character is masked, so no later clean-up can join it again', () => {
  for (const invisible of ['\u202E', '\u2066', '\u200B', '\u200D', '\u00AD', '\u0007', '\uFEFF']) {
    const split = `token rejected: ${SECRET.slice(0, 4)}${invisible}${SECRET.slice(4, 9)}${invisible}${SECRET.slice(9)}.`
    const masked = mask(split)
    assert.equal(masked, `token rejected: ${MASKED}.`, JSON.stringify(invisible))
    for (const cleaned of [forPage(masked), neutralise(masked)]) assert.ok(!cleaned.includes(SECRET))
  }
})

test('every new form is masked: HTML entities, lower-case and every-byte percent, \\uXXXX, hex', () => {
  const forms = {
    htmlEscaped: SECRET.replace('&', '&amp;'),
    hexEntities: each((c) => `&#x${hex2(c)};`),
    upperHexEntities: each((c) => `&#X${hex2(c).toUpperCase()};`),
    decimalEntities: each((c) => `&#${c.charCodeAt(0)};`),
    lowerPercent: encodeURIComponent(SECRET).replace(/%[0-9A-F]{2}/g, (e) => e.toLowerCase()),
    everyBytePercent: each((c) => `%${hex2(c)}`),
    everyBytePercentUpper: each((c) => `%${hex2(c).toUpperCase()}`),
    jsonUnicode: each((c) => `\\u00${hex2(c)}`),
    jsonUnicodeUpper: each((c) => `\\u00${hex2(c).toUpperCase()}`),
    hex: bytes.toString('hex'),
    hexUpper: bytes.toString('hex').toUpperCase(),
  }
  for (const [name, form] of Object.entries(forms)) {
    assert.equal(mask(`<pre>Authorization: Bearer ${form}</pre>`), `<pre>Authorization: Bearer ${MASKED}</pre>`, name)
  }
})

test('escapes and invisible characters in any mix are read through; other text is left as it is', () => {
  const oneCharacter = fc.constantFrom(
    (c: string) => c,
    (c: string) => `&#x${hex2(c)};`,
    (c: string) => `&#${c.charCodeAt(0)};`,
    (c: string) => `%${hex2(c).toUpperCase()}`,
    (c: string) => `\\u00${hex2(c)}`,
    (c: string) => `${c}\u200B`,
    (c: string) => `\u202E${c}`,
  )
  fc.assert(
    fc.property(fc.array(oneCharacter, { minLength: SECRET.length, maxLength: SECRET.length }), fc.string(), (encoders, around) => {
      const written = [...SECRET].map((c, i) => encoders[i]!(c)).join('')
      const masked = mask(`${around}${written}${around}`)
      assert.ok(masked.includes(MASKED))
      assert.ok(!forPage(masked).includes(SECRET) && !neutralise(masked, 10_000).includes('s3cret'))
    }),
  )
  const ordinary = 'Fish &amp; chips at 50% off, \\u00e9t\u00e9 &#233;t&#xe9; — a&b'
  assert.equal(mask(ordinary), ordinary)
})
