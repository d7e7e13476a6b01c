import assert from 'node:assert/strict'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, test } from 'node:test'
import type { Browser } from 'playwright-core'
import type { Attempt, Turn } from '../../src/records/journal/records.ts'
import { renderRunReport } from '../../src/views/run/run-report.ts'
import { launchChromium, linesInlineAndDrawn, NO_CHROMIUM } from '../report/browser-harness.ts'
import { attempt, manifest, scenario } from '../report/small-run.ts'

/**
 * The run report shows what an agent's protocol told about each answer: the tools it called (text
 * from the agent, so escaped like any other) and the time to first token, per answer and as a tile.
 */
const HOSTILE = '<img src=x onerror="window.__pwned=1">'

function withTurns(base: Attempt, turns: Turn[]): Attempt {
  return { ...base, turns }
}

function run(): { manifest: ReturnType<typeof manifest>; attempts: Attempt[] } {
  const user = (text: string): Turn => ({ role: 'user', text, seconds: 0, tokens: null, error: null })
  const agent = (text: string, seconds: number, extra: Partial<Turn> = {}): Turn => ({ role: 'agent', text, seconds, tokens: null, error: null, ...extra })
  return {
    manifest: manifest([scenario('orders')]),
    attempts: [
      withTurns(attempt('orders', 1, 'passed', []), [
        user('where is order 4321?'),
        agent('It has shipped.', 2, { firstTokenSeconds: 0.4, toolCalls: [{ name: 'get_order', arguments: { id: '4321' } }, { name: HOSTILE, arguments: HOSTILE }] }),
        user('thanks'),
        agent('You are welcome.', 1, { firstTokenSeconds: 0.2 }),
      ]),
      withTurns(attempt('orders', 2, 'passed', []), [user('hi'), agent('Hello.', 3)]),
    ],
  }
}

describe('tool calls and time to first token in the run report', () => {
  test('each answer lists its tool calls and its first token; the tile is the mean over answers that streamed', () => {
    const page = renderRunReport({ ...run(), dialogues: 'inline' })
    assert.match(page, /<ul class="tools" aria-label="Tool calls"><li><span class="tool">get_order<\/span> <span class="args">\{&quot;id&quot;:&quot;4321&quot;\}<\/span><\/li>/)
    assert.match(page, /<span class="meta">2\.0 s · first token 0\.4 s<\/span>/)
    assert.match(page, /<div class="label">Time to first token<\/div><div class="value">0\.3 s <small>mean<\/small><\/div><div class="sub">over the 2 of 3 answers that streamed<\/div>/)
    assert.doesNotMatch(page, /<img src=x/)
  })

  test('a run whose agent never streamed has no first-token tile', () => {
    const plain = run()
    plain.attempts = plain.attempts.map((a) => ({ ...a, turns: a.turns.map(({ firstTokenSeconds: _f, ...turn }) => turn) }))
    assert.doesNotMatch(renderRunReport({ ...plain, dialogues: 'inline' }), /Time to first token/)
  })

  describe('drawn by the page script for large runs', { skip: NO_CHROMIUM }, () => {
    let browser: Browser
    let dir: string
    before(async () => {
      browser = await launchChromium()
      dir = await mkdtemp(join(tmpdir(), 'convy-tools-'))
    })
    after(async () => {
      await browser?.close()
      await rm(dir, { recursive: true, force: true })
    })

    test('the same tool lines as the HTML, and the agent’s text stays text', async () => {
      const lines = await linesInlineAndDrawn(browser, dir, '.tools li', (dialogues) => renderRunReport({ ...run(), dialogues }))
      assert.deepEqual(lines['lazy'], lines['inline'])
      assert.deepEqual(lines['inline'], ['get_order {"id":"4321"}', `${HOSTILE} ${JSON.stringify(HOSTILE)}`])
    })
  })
})
