import assert from 'node:assert/strict'
import { mkdtemp } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, test } from 'node:test'
import { echoAgent } from '../../src/play/agents/create-agent.ts'
import { readAllAttempts } from '../../src/records/journal/read-run.ts'
import { RUN_FORMAT, type RunManifest } from '../../src/records/journal/records.ts'
import { RunJournal } from '../../src/records/journal/run-journal.ts'
import { processWriter } from '../../src/entry/cli/writer.ts'
import { createModels } from '../../src/play/runner/prepare.ts'
import { harnessCostUsd } from '../../src/records/journal/attempt-facts.ts'
import { Budget } from '../../src/play/runner/budget.ts'
import { playRun } from '../../src/play/runner/play-run.ts'
import { planAttempts } from '../../src/play/runner/select-scenarios.ts'
import type { Scenario } from '../../src/records/scenario/scenario.ts'
import { fakeReply, startFakeModelServer, type FakeModelServer } from '../../src/entry/testing/fake-model-server.ts'

// Each attempt is one call to the simulated user that reports a million input tokens, at $1 per
// million: every attempt costs exactly $1.
const PRICES: Record<string, [number, number]> = { 'user-model': [1, 0] }
const scenario: Scenario = { id: 's', file: 's.yml', maxTurns: 3, user: 'Say hello, then stop.', judge: [], checks: [{ kind: 'contains', value: 'hello' }], tags: [] }

let server: FakeModelServer
before(async () => {
  server = await startFakeModelServer({ latencyMs: 20, handler: () => fakeReply.text('hello ###STOP###', { inputTokens: 1_000_000, outputTokens: 0 }) })
})
after(async () => server.close())

async function budgetedRun(budgetUsd: number, parallel: number) {
  const dir = await mkdtemp(join(tmpdir(), 'convy-budget-'))
  const manifest: RunManifest = {
    format: RUN_FORMAT,
    id: 'bot/2026-11-29T10-00-00_b0b0',
    agent: { name: 'bot', kind: 'echo', version: null, fingerprint: 'f' },
    convyVersion: '0',
    models: { user: 'user-model', judge: null, fingerprint: 'm', prices: { ...PRICES } },
    settings: { k: 20, parallel, turnTimeoutSeconds: 5, scenarioGlobs: [], tags: [], smoke: false, shard: null, budgetUsd },
    scenarios: [scenario],
    startedAt: new Date().toISOString(),
    finishedAt: null,
    state: 'running',
    ci: null,
  }
  const journal = await RunJournal.create(dir, manifest, processWriter('test'))
  const { user } = createModels({ baseURL: server.url, userModel: 'user-model', timeoutSeconds: 5, maxTries: 1 })
  const result = await playRun({
    journal,
    todo: planAttempts([scenario], 20, null),
    parallel,
    signal: new AbortController().signal,
    budget: new Budget(budgetUsd),
    play: { agent: echoAgent, user, judge: null, smoke: false, turnTimeoutSeconds: 5, prices: PRICES, mask: (t) => t },
  })
  await journal.release()
  const attempts = await readAllAttempts(journal.dir)
  return { result, attempts, spent: attempts.reduce((sum, a) => sum + (harnessCostUsd(a) ?? 0), 0) }
}

test('a budget stops starting attempts before spending would pass it, at any parallelism', async () => {
  for (const parallel of [1, 4, 16]) {
    const { result, attempts, spent } = await budgetedRun(3.5, parallel)
    assert.equal(result.stoppedForBudget, true, `parallel ${parallel}`)
    assert.ok(spent <= 3.5 + 1e-9, `parallel ${parallel}: spent $${spent} of $3.5`)
    assert.ok(spent >= 3.5 - 1 - 1e-9, `parallel ${parallel}: stopped more than one attempt's cost early ($${spent})`)
    assert.equal(attempts.length, result.recorded)
  }
})

test('without a budget every attempt is played', async () => {
  const { result, attempts } = await budgetedRun(1000, 8)
  assert.equal(result.stoppedForBudget, false)
  assert.equal(attempts.length, 20)
})
