import assert from 'node:assert/strict'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, test } from 'node:test'
import type { Browser } from 'playwright-core'
import { renderRunReport } from '../../../src/views/run/run-report.ts'
import { HOSTILE as HOSTILE_CALL, toolCallsRun } from '../../agents/tool-calls-run.ts'
import { linesInlineAndDrawn, NO_CHROMIUM } from '../browser-harness.ts'
import { HOSTILE as HOSTILE_RESULT, toolResultsRun } from '../tool-results-run.ts'
import { servedRun } from '../../tools/served-run.ts'

/**
 * The tool lines of a run report as the page script draws them for a large run, against the lines
 * written inline: the runs of ../../agents/tool-calls-report.test.ts and ../tool-results.test.ts, on
 * the browser the caller launched once for every page test (`../browser.test.ts`).
 */
export function toolLinesInBrowser(chromium: () => Browser): void {
  describe('tool calls in the run report: drawn by the page script for large runs', { skip: NO_CHROMIUM }, () => {
    let browser: Browser
    let dir: string
    before(async () => {
      browser = chromium()
      dir = await mkdtemp(join(tmpdir(), 'convy-tools-'))
    })
    after(async () => {
      await rm(dir, { recursive: true, force: true })
    })

    test('served calls (play/tools/): the same lines drawn as written, marked served with the fault', async () => {
      const lines = await linesInlineAndDrawn(browser, dir, '.tools li', (dialogues) => renderRunReport({ ...servedRun(), dialogues }))
      assert.deepEqual(lines['lazy'], lines['inline'])
      assert.deepEqual(lines['inline']![0], 'get_order {"order_id":"O-17"} → error: upstream timeout served · fault: call 1: error "upstream timeout"')
    })

    test('the same tool lines as the HTML, and the agent’s text stays text', async () => {
      const lines = await linesInlineAndDrawn(browser, dir, '.tools li', (dialogues) => renderRunReport({ ...toolCallsRun(), dialogues }))
      assert.deepEqual(lines['lazy'], lines['inline'])
      assert.deepEqual(lines['inline'], ['get_order {"id":"4321"}', `${HOSTILE_CALL} ${JSON.stringify(HOSTILE_CALL)}`])
    })
  })

  describe('tool results in the run report: drawn by the page script for large runs', { skip: NO_CHROMIUM }, () => {
    let browser: Browser
    let dir: string
    before(async () => {
      browser = chromium()
      dir = await mkdtemp(join(tmpdir(), 'convy-tool-results-'))
    })
    after(async () => {
      await rm(dir, { recursive: true, force: true })
    })

    test('the same lines inline and drawn, and the tool’s result stays text', async () => {
      const lines = await linesInlineAndDrawn(browser, dir, '.tools li', (dialogues) => renderRunReport({ ...toolResultsRun(), dialogues }))
      assert.deepEqual(lines['lazy'], lines['inline'])
      assert.deepEqual(lines['inline']!.slice(0, 3), ['refund {"order":"4321"} → {"refund":"R-9911","amount":12.5}', `lookup {"q":"x"} → ${HOSTILE_RESULT}`, 'audit {}'])
    })
  })
}
