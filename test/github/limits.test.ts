import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { fitBytes, fitCharacters } from '../../src/adapters/github/limits.ts'

const rows = (n: number, width = 30) => Array.from({ length: n }, (_, i) => `| row ${String(i).padStart(4, '0')} |${'x'.repeat(width)}|`).join('\n')

describe('GitHub size limits', () => {
  test('text within the limit is left alone', () => {
    const text = rows(10)
    assert.equal(fitCharacters(text, text.length, 'cut'), text)
    assert.equal(fitBytes(text, Buffer.byteLength(text), 'cut'), text)
  })

  test('longer text is cut at a line boundary, within the limit, with the note', () => {
    const text = rows(1000)
    const fitted = fitCharacters(text, 5000, '…cut.')
    assert.ok(fitted.length <= 5000, `${fitted.length}`)
    assert.ok(fitted.endsWith('\n\n…cut.'))
    const kept = fitted.slice(0, -'\n\n…cut.'.length).split('\n')
    assert.ok(kept.length > 100)
    assert.deepEqual(kept, text.split('\n').slice(0, kept.length), 'whole rows, from the start')
  })

  test('bytes are counted as UTF-8: text of multi-byte characters fits the byte limit', () => {
    const text = Array.from({ length: 5000 }, () => '🟥 Worse · ünïcödé').join('\n')
    const fitted = fitBytes(text, 20_000, 'cut')
    assert.ok(Buffer.byteLength(fitted) <= 20_000)
    assert.ok(Buffer.byteLength(fitted) > 15_000)
    assert.ok(fitted.endsWith('\n\ncut'))
  })
})
