import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { renderRunReport } from '../../src/views/run/run-report.ts'
import { toolCallDigests } from '../../src/records/tally/run-tally.ts'
import { servedRun } from './served-run.ts'
import { dialogueOf } from '../../src/play/judge/rejudge-attempt.ts'

/**
 * Served calls in the report: in the turn they came during, like reported calls, marked served with
 * the fault injected; a call both served and reported shows once; what the agent sent is escaped.
 */
describe('served calls in the run report', () => {
  test('in their turn, marked served with the fault; a call served and reported shows once; escaped', () => {
    const page = renderRunReport({ ...servedRun(), dialogues: 'inline' })
    const lists = [...page.matchAll(/<ul class="tools" aria-label="Tool calls">(.*?)<\/ul>/gs)].map((m) => m[1]!.split('</li>').filter(Boolean))
    assert.equal(lists.length, 2)
    assert.deepEqual(lists[0], [
      `<li class="served"><span class="tool">get_order</span> <span class="args">{&quot;order_id&quot;:&quot;O-17&quot;}</span> <span class="result" title="What the tool returned">→ error: upstream timeout</span> <span class="served-by" title="Served and recorded by convy-ci's tools">served · fault: call 1: error &quot;upstream timeout&quot;</span>`,
    ])
    assert.deepEqual(
      lists[1]!.map((item) => /<span class="tool">([^<]*)<\/span>/.exec(item)![1] + (item.startsWith('<li class="served">') ? ' (served)' : '')),
      ['create_refund (served)', 'lookup (served)', 'crm_note'],
    )
    assert.doesNotMatch(page, /<img src=x/)
  })

  test('a large run embeds the same rows, the served mark fourth', () => {
    const page = renderRunReport({ ...servedRun(), dialogues: 'lazy' })
    assert.ok(page.includes('["get_order","{\\"order_id\\":\\"O-17\\"}","error: upstream timeout","served · fault: call 1: error \\"upstream timeout\\""]'))
    assert.doesNotMatch(page, /<img src=x/)
  })

  test("the tally's digest of tool calls counts served calls with the reported ones, each once", () => {
    const digest = toolCallDigests(servedRun().attempts[0]!)
    assert.deepEqual(
      digest.map((d) => [d.name, d.served ?? false]),
      [
        ['get_order', true],
        ['create_refund', true],
        ['lookup', true],
        ['crm_note', false],
      ],
    )
  })

  test('rejudge asks about the dialogue the judge saw: the served calls in their answers, each call once', () => {
    const lines = dialogueOf(servedRun().attempts[0]!).filter((line) => line.role === 'agent')
    assert.deepEqual(
      lines.map((line) => (line.toolCalls ?? []).map((call) => `${call.name}${call.served ? ' (served)' : ''}${call.fault ? ` [${call.fault}]` : ''}`)),
      [['get_order (served) [call 1: error "upstream timeout"]'], ['create_refund (served)', 'lookup (served)', 'crm_note']],
    )
  })
})
