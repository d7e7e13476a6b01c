import assert from 'node:assert/strict'
import { mkdtemp } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { before, describe, test } from 'node:test'
import type { Browser } from 'playwright-core'
import type { Attempt, Turn } from '../../../src/records/journal/records.ts'
import { renderRunReport } from '../../../src/views/run/run-report.ts'
import { linesInlineAndDrawn, NO_CHROMIUM } from '../browser-harness.ts'
import { attempt, manifest, scenario } from '../small-run.ts'

/**
 * An answer of several messages in report.html: a bubble per message, in order, the first with the
 * answer's time and tool calls, written inline (small runs) and drawn by the page script from data
 * (large runs) alike; a message with markup in it stays text.
 */
const HOSTILE = '<img src=x onerror="window.__pwned=1">Order O-118 shipped.'

function severalMessagesRun(): { manifest: ReturnType<typeof manifest>; attempts: Attempt[] } {
  const user = (text: string): Turn => ({ role: 'user', text, seconds: 0, tokens: null, error: null })
  const messages = ['Hi Ann, let me look that up.', HOSTILE]
  const answer: Turn = { role: 'agent', text: messages.join('\n\n'), messages, seconds: 2, tokens: { input: 12, output: 9 }, error: null, toolCalls: [{ name: 'get_order', arguments: { id: 'O-118' } }] }
  const single: Turn = { role: 'agent', text: 'You are welcome.', seconds: 1, tokens: null, error: null }
  return { manifest: manifest([scenario('orders')]), attempts: [{ ...attempt('orders', 1, 'passed', []), turns: [user('where is my order?'), answer, user('thanks'), single] }] }
}

export function severalMessagesInBrowser(chromium: () => Browser): void {
  describe('an answer of several messages in the run report', { skip: NO_CHROMIUM }, () => {
    let browser: Browser
    let dir: string
    before(async () => {
      browser = chromium()
      dir = await mkdtemp(join(tmpdir(), 'convy-messages-'))
    })

    test('a bubble per message, in order, inline and drawn alike; the first carries the time and the tool call', async () => {
      const render = (dialogues: 'inline' | 'lazy') => renderRunReport({ ...severalMessagesRun(), dialogues })
      const texts = await linesInlineAndDrawn(browser, dir, '.dialogue .turn .text', render)
      assert.deepEqual(texts['lazy'], texts['inline'])
      assert.deepEqual(texts['inline'], ['where is my order?', 'Hi Ann, let me look that up.', HOSTILE, 'thanks', 'You are welcome.'])
      const metas = await linesInlineAndDrawn(browser, dir, '.dialogue .turn.agent .turn-h', render)
      assert.deepEqual(metas['lazy'], metas['inline'])
      assert.deepEqual(metas['inline'], ['Agentmessage 1 of 2 · 2.0 s · 12 in / 9 out tokens', 'Agentmessage 2 of 2', 'Agent1.0 s'])
      const tools = await linesInlineAndDrawn(browser, dir, '.dialogue .tools li', render)
      assert.deepEqual(tools['inline'], ['get_order {"id":"O-118"}'], 'the tool call is shown once')
    })
  })
}
