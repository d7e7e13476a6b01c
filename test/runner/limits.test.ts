import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import type { Turn } from '../../src/records/journal/records.ts'
import { limitChecks, limitPassed } from '../../src/play/world/limits.ts'

const user = (): Turn => ({ role: 'user', text: 'hi', seconds: 0, tokens: null, error: null })
const answer = (seconds: number, tokens: [number, number] | null = null): Turn => ({ role: 'agent', text: 'ok', seconds, tokens: tokens && { input: tokens[0], output: tokens[1] }, error: null })

describe('limits per attempt, on recorded turns', () => {
  const turns = [user(), answer(1.2, [100, 20]), user(), answer(4.21, [300, 80]), user(), answer(3.5, [10, 5])]

  test('each limit is a check with the figure and the limit, failed past it', () => {
    const checks = limitChecks({ answerMs: 3000, attemptMs: 8000, agentTokens: 400, costUsd: 0.001 }, { turns, elapsedMs: 9120.4, agentPrice: [2, 8] })
    assert.deepEqual(checks, [
      { kind: 'limit', value: 'answer_ms: 3000', pass: false, detail: 'answer 2 took 4,210 ms, limit 3,000 ms (2 answers past it)' },
      { kind: 'limit', value: 'attempt_ms: 8000', pass: false, detail: 'the attempt ran 9,120 ms, limit 8,000 ms' },
      { kind: 'limit', value: 'agent_tokens: 400', pass: false, detail: 'the agent used 515 tokens, limit 400' },
      // (410 × 2 + 105 × 8) / 1e6 = $0.00166
      { kind: 'limit', value: 'cost_usd: 0.001', pass: false, detail: "the agent's tokens cost $0.00166, limit $0.001" },
    ])
  })

  test('a failed turn is not an answer; an agent that reports no tokens fails a token limit, saying why', () => {
    const failed: Turn = { role: 'agent', text: '', seconds: 30, tokens: null, error: 'no answer within 30 s (--turn-timeout)' }
    const checks = limitChecks({ answerMs: 3000, agentTokens: 10 }, { turns: [user(), answer(0.5), user(), failed], elapsedMs: 31_000, agentPrice: null })
    assert.deepEqual(checks.map((c) => [c.pass, c.detail]), [
      [true, 'the slowest answer took 500 ms, limit 3,000 ms'],
      [false, 'the agent reported no tokens, so the limit cannot be checked (convy.yml: `tokens:` for a JSON agent)'],
    ])
  })

  test('only attempt_ms and agent_tokens end an attempt early', () => {
    assert.equal(limitPassed({ answerMs: 1, costUsd: 0.000001 }, { turns, elapsedMs: 1e9 }), false)
    assert.equal(limitPassed({ attemptMs: 9000 }, { turns, elapsedMs: 9000 }), false)
    assert.equal(limitPassed({ attemptMs: 9000 }, { turns, elapsedMs: 9001 }), true)
    assert.equal(limitPassed({ agentTokens: 515 }, { turns, elapsedMs: 0 }), false)
    assert.equal(limitPassed({ agentTokens: 514 }, { turns, elapsedMs: 0 }), true)
  })
})
