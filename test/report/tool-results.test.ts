import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { renderRunReport } from '../../src/views/run/run-report.ts'
import { toolResultsRun as run } from './tool-results-run.ts'

/**
 * A tool's result (recorded where the protocol carries it: the AI SDK's tool outputs, A2A artifacts,
 * LangGraph tool messages) is shown in the report's transcript beside its call: text from the agent's
 * side, so escaped like the rest, and cut at 1,000 characters like the arguments. The page script
 * draws the same lines in Chromium: browser/tool-lines.ts.
 */
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
})
