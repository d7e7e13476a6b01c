// Builds run records for the compare tests from a compact description: a string of outcomes per
// scenario, P passed, F failed, E agent error, N no verdict, U user error, D not decided.
import type { Attempt, RunManifest, Verdict } from '../../src/records/journal/records.ts'
import type { Scenario } from '../../src/records/scenario/scenario.ts'
import type { RunRecord } from '../../src/records/tally/run-tally.ts'

const VERDICTS: Record<string, Verdict> = { P: 'passed', F: 'failed', E: 'agent_error', N: 'no_verdict', U: 'user_error', D: 'not_decided' }

export function scenario(id: string, overrides: Partial<Scenario> = {}): Scenario {
  return { id, file: `scenarios/${id}.yml`, maxTurns: 4, user: `You are testing ${id}.`, judge: ['The agent helped'], checks: [], tags: [], ...overrides }
}

export function manifest(overrides: Partial<RunManifest> = {}): RunManifest {
  return {
    format: 1,
    id: 'bot/2026-03-01T10-00-00_a1b2',
    agent: { name: 'bot', kind: 'http', version: null, fingerprint: 'agent-sha' },
    convyVersion: '0.1.0',
    models: { user: 'user-model', judge: 'judge-model', fingerprint: 'models-sha', prices: {} },
    settings: { k: 5, parallel: 1, turnTimeoutSeconds: 60, scenarioGlobs: [], tags: [], smoke: false, shard: null },
    scenarios: [],
    startedAt: '2026-03-01T10:00:00.000Z',
    finishedAt: '2026-03-01T10:05:00.000Z',
    state: 'finished',
    ci: null,
    ...overrides,
  }
}

export function attempt(scenarioId: string, number: number, verdict: Verdict, overrides: Partial<Attempt> = {}): Attempt {
  return {
    scenario: scenarioId,
    attempt: number,
    verdict,
    error: verdict === 'agent_error' || verdict === 'no_verdict' ? 'something failed' : null,
    claims: [],
    checks: [],
    turns: [
      { role: 'user', text: 'hello', seconds: 0.5, tokens: null, error: null },
      { role: 'agent', text: 'hi', seconds: 1, tokens: null, error: null },
    ],
    agentTokens: null,
    models: { user: null, judge: null },
    startedAt: '2026-03-01T10:00:00.000Z',
    seconds: 2,
    ...overrides,
  }
}

/** A run from `{ scenarioId: 'PPFPN' }`; the scenarios' copies come from `scenarios` when given. */
export function run(outcomes: Record<string, string>, options: { manifest?: Partial<RunManifest>; scenarios?: Record<string, Scenario> } = {}): RunRecord {
  const ids = Object.keys(outcomes)
  const attempts = ids.flatMap((id) => [...outcomes[id]!].map((letter, index) => attempt(id, index + 1, VERDICTS[letter]!)))
  return {
    manifest: manifest({ scenarios: ids.map((id) => options.scenarios?.[id] ?? scenario(id)), ...options.manifest }),
    attempts,
  }
}

/** `passes` P then F, `total` long: run(layout(...)) for scenario tables. */
export function outcomes(passes: number, total: number): string {
  return 'P'.repeat(passes) + 'F'.repeat(total - passes)
}
