import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { actionOutputs } from '../../src/entry/action/outputs.ts'
import type { AgentOutcome } from '../../src/entry/action/publish-agent.ts'

const outcome = (agent: string, fields: Partial<AgentOutcome>): AgentOutcome => ({
  agent,
  runId: `${agent}/2026-11-29T10-00-00_abcd`,
  passRate: 0.5,
  verdict: 'within-noise',
  reportUrl: `https://github.com/o/r/actions/runs/1/artifacts/${agent.length}`,
  commentUrl: null,
  markdown: '',
  failure: null,
  ...fields,
})

describe('action outputs', () => {
  test('one agent: single values; a pass rate is a fraction', () => {
    const outputs = actionOutputs([outcome('bot', { passRate: 14 / 15, commentUrl: 'https://github.com/o/r/pull/3#issuecomment-9' })])
    assert.equal(outputs['run-id'], 'bot/2026-11-29T10-00-00_abcd')
    assert.equal(outputs['pass-rate'], '0.9333')
    assert.equal(outputs.verdict, 'within-noise')
    assert.equal(outputs['comment-url'], 'https://github.com/o/r/pull/3#issuecomment-9')
    assert.deepEqual(JSON.parse(outputs.results!), [
      { agent: 'bot', 'run-id': 'bot/2026-11-29T10-00-00_abcd', 'pass-rate': 14 / 15, verdict: 'within-noise', inconclusive: null, 'report-url': 'https://github.com/o/r/actions/runs/1/artifacts/3', 'comment-url': 'https://github.com/o/r/pull/3#issuecomment-9' },
    ])
  })

  test('several agents: a line each, in order, empty where there is none; the most telling verdict', () => {
    const outputs = actionOutputs([outcome('a', { verdict: 'better', passRate: null }), outcome('bb', { verdict: 'no-baseline' }), outcome('ccc', { verdict: 'worse', commentUrl: 'u' })])
    assert.equal(outputs['run-id'], 'a/2026-11-29T10-00-00_abcd\nbb/2026-11-29T10-00-00_abcd\nccc/2026-11-29T10-00-00_abcd')
    assert.equal(outputs['pass-rate'], '\n0.5\n0.5')
    assert.equal(outputs['comment-url'], '\n\nu')
    assert.equal(outputs.verdict, 'worse')
    assert.equal(actionOutputs([outcome('a', { verdict: 'no-baseline' }), outcome('b', { verdict: 'better' })]).verdict, 'better')
    assert.equal(actionOutputs([]).verdict, '')
  })

  test('inconclusive is an outcome of its own, and which one is said per agent', () => {
    const outputs = actionOutputs([outcome('a', { verdict: 'inconclusive', inconclusive: 'evidence-missing' }), outcome('b', { verdict: 'within-noise' }), outcome('c', { verdict: 'inconclusive', inconclusive: 'too-little-to-tell' })])
    assert.equal(outputs.verdict, 'inconclusive')
    assert.equal(outputs.inconclusive, 'evidence-missing\n\ntoo-little-to-tell')
    assert.equal(actionOutputs([outcome('a', { verdict: 'inconclusive' }), outcome('b', { verdict: 'worse' })]).verdict, 'worse', 'worse first')
  })
})
