import assert from 'node:assert/strict'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, test } from 'node:test'
import type { Browser } from 'playwright-core'
import type { Attempt, Turn } from '../../src/records/journal/records.ts'
import { renderRunReport } from '../../src/views/run/run-report.ts'
import { launchChromium, linesInlineAndDrawn, NO_CHROMIUM } from './browser-harness.ts'
import { attempt, manifest, scenario } from './small-run.ts'

/**
 * A tool's result (recorded where the protocol carries it: the AI SDK's tool outputs, A2A artifacts,
 * LangGraph tool messages) is shown in the report's transcript beside its call: text from the agent's
 * side, so escaped like the rest, and cut at 1,000 characters like the arguments.
 */
const HOSTILE = '<img src=x onerror="window.__pwned=1">'
const LONG = `R-${'x'.repeat(3_000)}`

function run(): { manifest: ReturnType<typeof manifest>; attempts: Attempt[] } {
  const user = (text: string): Turn => ({ role: 'user', text, seconds: 0, tokens: null, error: null })
  const agent = (text: string, extra: Partial<Turn> = {}): Turn => ({ role: 'agent', text, seconds: 1, tokens: null, error: null, ...extra })
  const turns = [
    user('refund order 4321'),
    agent('Refunded: R-9911.', {
      toolCalls: [
        { name: 'refund', arguments: { order: '4321' }, result: { refund: 'R-9911', amount: 12.5 } },
        { name: 'lookup', arguments: { q: 'x' }, result: HOSTILE },
        { name: 'audit', arguments: {} },
        { name: 'dump', result: LONG },
      ],
    }),
  ]
  return { manifest: manifest([scenario('refund')]), attempts: [{ ...attempt('refund', 1, 'passed', []), turns }] }
}

describe('tool results in the run report', () => {
  test('beside each call: a JSON result compact, a text as it came, escaped, cut; none when none was recorded', () => {
    const page = renderRunReport({ ...run(), dialogues: 'inline' })
    const tools = /<ul class="tools" aria-label="Tool calls">(.*?)<\/ul>/s.exec(page)![1]!
    const items = tools.split('</li>').filter(Boolean)
    assert.equal(items.length, 4)
    assert.equal(items[0], '<li><span class="tool">refund</span> <span class="args">{&quot;order&quot;:&quot;4321&quot;}</span> <span class="result" title="What the tool returned">→ {&quot;refund&quot;:&quot;R-9911&quot;,&quot;amount&quot;:12.5}</span>')
    assert.equal(items[1], '<li><span class="tool">lookup</span> <span class="args">{&quot;q&quot;:&quot;x&quot;}</span> <span class="result" title="What the tool returned">→ &lt;img src=x onerror=&quot;window.__pwned=1&quot;&gt;</span>')
    assert.equal(items[2], '<li><span class="tool">audit</span> <span class="args">{}</span>', 'no result recorded: none shown')
    assert.match(items[3]!, /^<li><span class="tool">dump<\/span> <span class="result" title="What the tool returned">→ R-x{998}… \(2,002 more characters\)<\/span>$/)
    assert.doesNotMatch(page, /<img src=x/)
  })

  test('a large run embeds the same rows as data for the page script', () => {
    const page = renderRunReport({ ...run(), dialogues: 'lazy' })
    assert.ok(page.includes('["lookup","{\\"q\\":\\"x\\"}","\\u003cimg src=x onerror=\\"window.__pwned=1\\"\\u003e"]'), 'the row travels whole, escaped for a script block')
    assert.doesNotMatch(page, /<img src=x/)
  })

  describe('drawn by the page script for large runs', { skip: NO_CHROMIUM }, () => {
    let browser: Browser
    let dir: string
    before(async () => {
      browser = await launchChromium()
      dir = await mkdtemp(join(tmpdir(), 'convy-tool-results-'))
    })
    after(async () => {
      await browser?.close()
      await rm(dir, { recursive: true, force: true })
    })

    test('the same lines inline and drawn, and the tool’s result stays text', async () => {
      const lines = await linesInlineAndDrawn(browser, dir, '.tools li', (dialogues) => renderRunReport({ ...run(), dialogues }))
      assert.deepEqual(lines['lazy'], lines['inline'])
      assert.deepEqual(lines['inline']!.slice(0, 3), ['refund {"order":"4321"} → {"refund":"R-9911","amount":12.5}', `lookup {"q":"x"} → ${HOSTILE}`, 'audit {}'])
    })
  })
})
