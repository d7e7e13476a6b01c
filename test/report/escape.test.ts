import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { shownText } from '../../src/views/page/format.ts'
import { anchorFor, escapeHtml, html, jsonForScript, trusted } from '../../src/views/page/html.ts'
import { renderRunReport } from '../../src/views/run/run-report.ts'
import { attempt, manifest as smallManifest, scenario } from './small-run.ts'
import { HUGE_ANSWER, hostileAttempts, hostileManifest, PAYLOADS } from './hostile-run.ts'
import { assertNoInjectedMarkup, jsonBlocks } from './markup-check.ts'

describe('html escaping', () => {
  test('interpolated text is escaped, own markup is kept', () => {
    const made = html`<p title="${`"'<>&`}">${'<b>x</b>'}${trusted('<i>ok</i>')}${['<a>', 2, null, false]}</p>`
    assert.equal(made.value, '<p title="&quot;&#39;&lt;&gt;&amp;">&lt;b&gt;x&lt;/b&gt;<i>ok</i>&lt;a&gt;2</p>')
  })

  test('escapeHtml leaves plain text alone and escapes each special character once', () => {
    assert.equal(escapeHtml('plain text, 100%'), 'plain text, 100%')
    assert.equal(escapeHtml('&amp;'), '&amp;amp;')
  })

  test('JSON for a script element has no < and no line separator, and reads back the same', () => {
    const value = { text: PAYLOADS.join('\n'), more: ['</script>', '<!--', '\u2028', '\u2029', '&'] }
    const json = jsonForScript(value)
    assert.doesNotMatch(json, /[<>\u2028\u2029]/)
    assert.deepEqual(JSON.parse(json), value)
  })

  test('anchors are safe characters only, and different ids give different anchors', () => {
    const ids = ['a b', 'a_20_b', 'a_b', 'a-b', '<img src=x>', 'é', '😀', 'x"y']
    const anchors = ids.map((id) => anchorFor('scenario', id))
    for (const a of anchors) assert.match(a, /^[A-Za-z0-9._-]+$/)
    assert.equal(new Set(anchors).size, ids.length)
  })

  test('folding never splits a surrogate pair, and states the full length', () => {
    const text = `${'a'.repeat(9)}😀${'b'.repeat(50)}`
    const shown = shownText(text, 10, 30)
    assert.equal(shown.head, 'a'.repeat(9))
    assert.ok(shown.rest.startsWith('😀'))
    assert.equal(shown.length, text.length)
    assert.equal(shown.head.length + shown.rest.length, 30)
  })
})

describe('a run full of hostile text', () => {
  const manifest = hostileManifest()

  for (const dialogues of ['inline', 'lazy'] as const) {
    test(`no payload becomes markup (${dialogues} dialogues)`, () => {
      const page = renderRunReport({ manifest, attempts: hostileAttempts(), dialogues })
      assertNoInjectedMarkup(page)
    })
  }

  test('inline: every payload shows as text, in the dialogue, claims, reasons and errors', () => {
    const page = renderRunReport({ manifest, attempts: hostileAttempts(), dialogues: 'inline' })
    for (const payload of PAYLOADS) assert.ok(page.includes(escapeHtml(payload)), `payload missing as text: ${payload}`)
    assert.ok(page.includes(escapeHtml(`the agent failed turn 2: ${PAYLOADS[3]!}`)))
  })

  test('the errors banner under the tiles quotes the agent’s error as text; a run without errors has none', () => {
    const page = renderRunReport({ manifest, attempts: hostileAttempts(), dialogues: 'lazy' })
    const banner = /<div class="banner bad errors-seen">.*?<\/div>/s.exec(page)?.[0] ?? ''
    assert.ok(banner.includes(`<li>1 × agent error: <code>${escapeHtml(`the agent failed turn 2: ${PAYLOADS[3]!}`)}</code></li>`), banner)
    const at = page.indexOf('class="banner bad errors-seen"')
    assert.ok(at > page.indexOf('class="tiles') && at < page.indexOf('<h2>Scenarios</h2>'), 'under the tiles, above the scenarios')
    const clean = renderRunReport({ manifest: smallManifest([scenario('a')]), attempts: [attempt('a', 1, 'passed', [1])] })
    assert.doesNotMatch(clean, /class="[a-z ]*errors-seen"/)
    // Red when errors ended half the attempts or more (the hostile run: 1 of 2), quieter below that.
    const scattered = renderRunReport({ manifest: smallManifest([scenario('a')]), attempts: [attempt('a', 1, 'agent_error', [null]), attempt('a', 2, 'passed', [1]), attempt('a', 3, 'passed', [1])] })
    assert.match(scattered, /<div class="banner errors-seen"><strong>Errors, most frequent first\.<\/strong><ul><li>1 × agent error: <code>the agent failed a turn<\/code><\/li><\/ul><\/div>/)
  })

  test('lazy: the embedded data holds every payload unchanged, as data', () => {
    const page = renderRunReport({ manifest, attempts: hostileAttempts(), dialogues: 'lazy' })
    const blocks = jsonBlocks(page)
    assert.equal(blocks.length, 2)
    for (const block of blocks) assert.doesNotMatch(block, /[<\u2028\u2029]/)
    const texts = blocks.flatMap((b) => (JSON.parse(b) as { t: string[][] }).t.map((row) => row[3]))
    for (const payload of PAYLOADS) assert.ok(texts.includes(payload), `payload lost: ${payload}`)
  })

  test('a 5 MB answer is cut to what a page can carry, and says how long it was', () => {
    const page = renderRunReport({ manifest, attempts: hostileAttempts({ huge: true }), dialogues: 'inline' })
    assertNoInjectedMarkup(page)
    assert.ok(page.length < 400_000, `page is ${page.length} characters`)
    assert.ok(page.includes('of 5,242,880 characters'))
    assert.ok(page.includes('Show all 20,000 characters'))
    assert.equal(HUGE_ANSWER.length, 5_242_880)
  })
})

describe('a scenario description', () => {
  test("a scenario's description is shown, as text, at the top of its details", () => {
    const description = 'Refunds for late orders <img src=x onerror=alert(1)>'
    const page = renderRunReport({ manifest: smallManifest([scenario('late', { description })]), attempts: [attempt('late', 1, 'passed', [1])] })
    assert.ok(page.includes('<p class="desc text">Refunds for late orders &lt;img src=x onerror=alert(1)&gt;</p>'))
    assert.match(page, /data-search="late scenarios\/late\.yml refunds for late orders &lt;img/)
    assert.match(page, /data-names="late scenarios\/late\.yml"/)
  })
})
