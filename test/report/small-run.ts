import type { Attempt, ModelUse, RunManifest, Tokens, Turn, Verdict } from '../../src/records/journal/records.ts'
import type { Scenario } from '../../src/records/scenario/scenario.ts'

/**
 * A run small enough to count by hand: four scenarios × 3 attempts, one of each status.
 *
 *   A: passed, passed, passed          → Passing
 *   B: passed, failed, agent_error     → Flaky (1 of 2)
 *   C: failed, failed, no_verdict      → Failing (0 of 2)
 *   D: agent_error, no_verdict ×2      → No verdict
 */
export function scenario(id: string, extra: Partial<Scenario> = {}): Scenario {
  return { id, file: `scenarios/${id}.yml`, maxTurns: 4, user: `Instructions for ${id}`, judge: [], checks: [], tags: [], ...extra }
}

export function manifest(scenarios: Scenario[], extra: Partial<RunManifest> = {}): RunManifest {
  return {
    format: 1,
    id: 'bot/2026-03-01T10-00-00_ab12',
    agent: { name: 'bot', kind: 'json', version: '1.0', fingerprint: 'a'.repeat(64) },
    convyVersion: '0.1.0',
    models: { user: 'gpt-4.1-mini', judge: 'gpt-4.1', fingerprint: 'b'.repeat(64), prices: { 'gpt-4.1': [2, 8] } },
    settings: { k: 3, parallel: 1, turnTimeoutSeconds: 30, scenarioGlobs: [], tags: [], smoke: false, shard: null },
    scenarios,
    startedAt: '2026-03-01T10:00:00.000Z',
    finishedAt: '2026-03-01T10:02:05.000Z',
    state: 'finished',
    ci: null,
    ...extra,
  }
}

/** A dialogue from the agent's answer times; `null` is an answer that failed after 30 s. */
function turns(answerSeconds: (number | null)[]): Turn[] {
  return answerSeconds.flatMap((s, i): Turn[] => [
    { role: 'user', text: `question ${i + 1}`, seconds: 0.5, tokens: null, error: null },
    s === null
      ? { role: 'agent', text: '', seconds: 30, tokens: null, error: 'no answer within 30 s' }
      : { role: 'agent', text: `answer ${i + 1}`, seconds: s, tokens: null, error: null },
  ])
}

function use(model: string, costUsd: number): ModelUse {
  return { model, calls: 1, tries: 1, tokens: { input: 100, output: 10 }, seconds: 1, costUsd }
}

export function attempt(
  scenarioId: string,
  n: number,
  verdict: Verdict,
  answerSeconds: (number | null)[],
  extra: { tokens?: Tokens; claims?: Attempt['claims']; userCost?: number; judgeCost?: number; error?: string } = {},
): Attempt {
  return {
    scenario: scenarioId,
    attempt: n,
    verdict,
    error: extra.error ?? (verdict === 'agent_error' ? 'the agent failed a turn' : verdict === 'no_verdict' ? 'the judge did not answer' : null),
    claims: extra.claims ?? [],
    checks: [],
    turns: turns(answerSeconds),
    agentTokens: extra.tokens ?? null,
    models: {
      user: extra.userCost === undefined ? null : use('gpt-4.1-mini', extra.userCost),
      judge: extra.judgeCost === undefined ? null : use('gpt-4.1', extra.judgeCost),
    },
    startedAt: '2026-03-01T10:00:01.000Z',
    seconds: 5,
  }
}

export function smallRun(): { manifest: RunManifest; attempts: Attempt[] } {
  const claim = 'The agent asked for the order number'
  return {
    manifest: manifest([scenario('A'), scenario('B', { judge: [claim] }), scenario('C'), scenario('D')]),
    attempts: [
      attempt('A', 1, 'passed', [2, 4], { tokens: { input: 1000, output: 200 }, userCost: 0.125, judgeCost: 0.25 }),
      attempt('A', 2, 'passed', [1], { tokens: { input: 2000, output: 400 }, judgeCost: 0.5 }),
      attempt('A', 3, 'passed', [3]),
      attempt('B', 1, 'passed', [2], { tokens: { input: 3000, output: 600 }, claims: [{ claim, pass: true, reason: 'asked in turn 2' }] }),
      attempt('B', 2, 'failed', [6], { claims: [{ claim, pass: false, reason: 'never asked' }] }),
      attempt('B', 3, 'agent_error', [null]),
      attempt('C', 1, 'failed', [9]),
      attempt('C', 2, 'failed', [1]),
      attempt('C', 3, 'no_verdict', [2]),
      attempt('D', 1, 'agent_error', [null]),
      attempt('D', 2, 'no_verdict', [2]),
      attempt('D', 3, 'no_verdict', [2]),
    ],
  }
}
