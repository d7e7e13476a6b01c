import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { neutralise } from '../../src/views/markdown/neutralise.ts'
import { seededRandom } from '../stats/exact-arithmetic.ts'

const JOINER = '\u200D'

/** Every markdown-active character in `text` is backslash-escaped (preceded by an odd run of backslashes). */
function assertInert(text: string): void {
  for (let i = 0; i < text.length; i++) {
    if (!'`*_[]()!|~$'.includes(text[i]!)) continue
    let backslashes = 0
    for (let j = i - 1; j >= 0 && text[j] === '\\'; j--) backslashes++
    assert.equal(backslashes % 2, 1, `unescaped ${text[i]} at ${i} in ${JSON.stringify(text)}`)
  }
  assert.doesNotMatch(text, /[<>\n\r]/, 'no raw angle brackets or line breaks')
  assert.doesNotMatch(text, /@\w|#\d|:\/\/|www\./i, 'no mention, reference or address GitHub would link')
}

describe('neutralise', () => {
  test('plain words stay as they are', () => {
    assert.equal(neutralise('clarify-backup'), 'clarify-backup')
    assert.equal(neutralise('Hello, world. It costs 5 € or "about" 6.'), 'Hello, world. It costs 5 € or "about" 6.')
  })

  test('HTML is text: script, img onerror, closing tags, details, comments, entities', () => {
    const payloads = [
      '<script>alert(1)</script>',
      '<img src=x onerror="window.pwned=1">',
      '</textarea></table><svg onload=alert(1)>',
      '<details open><summary>click</summary>hidden</details>',
      '<!-- convy-ci:support_bot -->',
      '&lt;b&gt; &#60;i&#62;',
    ]
    for (const payload of payloads) assertInert(neutralise(payload))
    assert.equal(neutralise('<b>bold</b>'), '&lt;b&gt;bold&lt;/b&gt;')
    assert.equal(neutralise('&lt;b&gt;'), '&amp;lt;b&amp;gt;', 'an entity stays the characters it was written with')
  })

  test('no images or links, whatever the syntax', () => {
    const image = neutralise('![x](http://evil.example/a.png)')
    assert.equal(image, `\\!\\[x\\]\\(http:${JOINER}//evil.example/a.png\\)`)
    for (const payload of ['[click](javascript:alert(1))', '[a][ref]\n\n[ref]: http://x', '<http://evil.example>', 'see https://evil.example/login', 'go to www.evil.example', '[![x](y)](z)']) {
      assertInert(neutralise(payload))
    }
  })

  test('no @mentions, team mentions or issue references, and emails are not links', () => {
    assert.equal(neutralise('cc @octocat'), `cc @${JOINER}octocat`)
    assert.equal(neutralise('@github/security-team'), `@${JOINER}github/security-team`)
    assert.equal(neutralise('fixes #12'), `fixes #${JOINER}12`)
    assert.equal(neutralise('see GH-42'), `see GH-${JOINER}42`)
    assertInert(neutralise('mail admin@example.com'))
  })

  test('code spans, emphasis and math cannot open', () => {
    assert.equal(neutralise('`rm -rf /`'), '\\`rm -rf /\\`')
    assert.equal(neutralise('```js\nalert(1)\n```'), '\\`\\`\\`js alert\\(1\\) \\`\\`\\`')
    assert.equal(neutralise('**bold** _em_ ~~gone~~ $x^2$'), '\\*\\*bold\\*\\* \\_em\\_ \\~\\~gone\\~\\~ \\$x\\^2\\$')
    assert.equal(neutralise('a \\` b'), 'a \\\\\\` b', 'a backslash cannot cancel the escape that follows it')
  })

  test('one line: newlines collapse, so nothing can start a heading, list, quote or table', () => {
    assert.equal(neutralise('first\n\n# Heading\r\n- item\n> quote'), `first #${JOINER} Heading - item &gt; quote`)
    assert.equal(neutralise('a | b | c'), 'a \\| b \\| c')
    assert.equal(neutralise('tab\tand\u2028line separator'), 'tab and line separator')
  })

  test('bidirectional overrides are dropped', () => {
    assert.equal(neutralise('invoice\u202Efdp.exe'), 'invoicefdp.exe')
  })

  test('long text is cut to the limit with an ellipsis; a 5 MB answer stays small', () => {
    assert.equal(neutralise('abcdefghij', 5), 'abcd…')
    assert.equal(neutralise('😀😀😀😀😀😀', 3), '😀😀…', 'cut between characters, not inside one')
    const huge = neutralise('<b>'.repeat(2_000_000), 100)
    assert.ok(huge.length <= 100 * 5, `length ${huge.length}`)
    assert.ok(huge.endsWith('…'))
  })

  test('random mixtures of markdown, HTML and mentions always come out inert', () => {
    const random = seededRandom(42)
    const pieces = ['<', '>', '&', '[', ']', '(', ')', '!', '`', '*', '_', '|', '~', '$', '\\', '@', '#', '1', 'a', ' ', '\n', 'http://', 'www.', ':', '/']
    for (let round = 0; round < 500; round++) {
      const length = Math.floor(random() * 40)
      const text = Array.from({ length }, () => pieces[Math.floor(random() * pieces.length)]).join('')
      assertInert(neutralise(text))
    }
  })
})
