import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { renderRunReport } from '../../src/views/run/run-report.ts'
import { toolCallsRun as run } from './tool-calls-run.ts'

/**
 * The run report shows what an agent's protocol told about each answer: the tools it called (text
 * from the agent, so escaped like any other) and the time to first token, per answer and as a tile.
 * The page script draws the same tool lines in Chromium: ../report/browser/tool-lines.ts.
 */
describe('tool calls and time to first token in the run report', () => {
  test('each answer lists its tool calls and its first token; the tile is the median over attempts of their mean over answers that streamed', () => {
    const page = renderRunReport({ ...run(), dialogues: 'inline' })
    assert.match(page, /<ul class="tools" aria-label="Tool calls"><li><span class="tool">get_order<\/span> <span class="args">\{&quot;id&quot;:&quot;4321&quot;\}<\/span><\/li>/)
    assert.match(page, /<span class="meta">2\.0 s · first token 0\.4 s<\/span>/)
    assert.match(page, /<div class="label">Time to first token<\/div><div class="value">0\.3 s <small>median per attempt<\/small><\/div><div class="sub">over the 2 of 3 answers that streamed<\/div>/)
    assert.doesNotMatch(page, /<img src=x/)
  })

  test('a run whose agent never streamed has no first-token tile', () => {
    const plain = run()
    plain.attempts = plain.attempts.map((a) => ({ ...a, turns: a.turns.map(({ firstTokenSeconds: _f, ...turn }) => turn) }))
    assert.doesNotMatch(renderRunReport({ ...plain, dialogues: 'inline' }), /Time to first token/)
  })
})
