import assert from 'node:assert/strict'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, test } from 'node:test'
import { loadProjectConfig, type ProjectConfig } from '../../src/records/config/load-config.ts'
import { checkModels, prepareModels, startModelCheck } from '../../src/play/runner/prepare.ts'
import type { Scenario } from '../../src/records/scenario/scenario.ts'
import { InputError } from '../../src/base/shared/errors.ts'
import { startFakeModelServer, type FakeModelServer } from '../../src/entry/testing/fake-model-server.ts'

// The gateway check begun as soon as convy.yml is read (it runs while the scenario files load), and
// its result used by the check before the run: one request to the gateway, not two.

const judged: Scenario[] = [{ id: 's', file: 's.yml', maxTurns: 2, script: ['hi'], judge: ['The agent greets'], checks: [], tags: [] }]
const scriptedOnly: Scenario[] = [{ id: 's', file: 's.yml', maxTurns: 2, script: ['hi'], judge: [], checks: [{ kind: 'contains', value: 'x' }], tags: [] }]

let dir: string
let server: FakeModelServer
const gatewayCalls = () => server.requests.filter((r) => r.kind === 'other').length

async function config(models: string): Promise<ProjectConfig> {
  const path = join(dir, `convy-${Math.random().toString(16).slice(2)}.yml`)
  await writeFile(path, `models:\n${models}\nagents:\n  bot:\n    url: http://127.0.0.1:1/chat\n`)
  return loadProjectConfig(path)
}

describe('the gateway check begun early', () => {
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'convy-early-check-'))
    server = await startFakeModelServer({ apiKey: 'sk-right', latencyMs: 30 })
  })
  after(async () => {
    await server.close()
    await rm(dir, { recursive: true, force: true })
  })

  test('starts at once, and the check before the run uses it instead of asking again', { timeout: 60_000 }, async () => {
    server.reset()
    const project = await config(`  base_url: ${server.url}\n  api_key: sk-right\n  judge: judge-model`)
    const early = startModelCheck(project, {}, { smoke: false, cache: 'off' })
    assert.ok(early)
    // The request reaches the gateway with nothing awaiting it: the scenarios can load meanwhile.
    while (gatewayCalls() === 0) await new Promise((done) => setTimeout(done, 5))
    assert.equal(gatewayCalls(), 1)
    await checkModels(prepareModels(project, {}, judged, false), 'off', early)
    assert.equal(gatewayCalls(), 1)
  })

  test('a refused key fails the check before the run, as without it', async () => {
    server.reset()
    const project = await config(`  base_url: ${server.url}\n  api_key: sk-wrong\n  judge: judge-model`)
    const early = startModelCheck(project, {}, { smoke: false, cache: 'off' })
    await assert.rejects(checkModels(prepareModels(project, {}, judged, false), 'off', early), (error: unknown) => {
      assert.ok(error instanceof InputError)
      assert.match(error.message, /refused the API key \(HTTP 401\)/)
      return true
    })
    assert.equal(gatewayCalls(), 1)
  })

  test('held, not thrown, when the scenarios turn out to need no model', async () => {
    server.reset()
    const project = await config(`  base_url: ${server.url}\n  api_key: sk-wrong\n  judge: judge-model`)
    const early = startModelCheck(project, {}, { smoke: false, cache: 'off' })
    await checkModels(prepareModels(project, {}, scriptedOnly, false), 'off', early)
    await early!.done.catch(() => undefined)
  })

  test('not begun for --smoke, a run from the model cache, or a convy.yml that names no model', async () => {
    server.reset()
    const named = await config(`  base_url: ${server.url}\n  api_key: sk-right\n  judge: judge-model`)
    assert.equal(startModelCheck(named, {}, { smoke: true, cache: 'off' }), null)
    assert.equal(startModelCheck(named, {}, { smoke: false, cache: 'read' }), null)
    assert.equal(startModelCheck(named, {}, { smoke: false, cache: 'readwrite' }), null)
    assert.equal(startModelCheck(await config(`  base_url: ${server.url}`), {}, { smoke: false, cache: 'off' }), null)
    // A key from an unset variable is for prepareModels to report, with its line.
    assert.equal(startModelCheck(await config(`  base_url: ${server.url}\n  api_key: \${NOT_SET}\n  judge: judge-model`), {}, { smoke: false, cache: 'off' }), null)
    await new Promise((done) => setTimeout(done, 50))
    assert.equal(gatewayCalls(), 0)
  })

  test('another gateway than the one begun is checked afresh', async () => {
    server.reset()
    const other = await startFakeModelServer({ apiKey: 'sk-right' })
    try {
      const early = startModelCheck(await config(`  base_url: ${other.url}\n  api_key: sk-right\n  judge: judge-model`), {}, { smoke: false, cache: 'off' })
      const project = await config(`  base_url: ${server.url}\n  api_key: sk-right\n  judge: judge-model`)
      await checkModels(prepareModels(project, {}, judged, false), 'off', early)
      assert.equal(gatewayCalls(), 1)
    } finally {
      await other.close()
    }
  })

  test('cancelled, a check still waiting ends at once', { timeout: 60_000 }, async () => {
    server.reset()
    // A gateway that would answer only after ten minutes: only the cancel can end the check (its own
    // timeout is 15 s), and the rejection says it was cancelled, not timed out.
    const slow = await startFakeModelServer({ latencyMs: 600_000 })
    try {
      const early = startModelCheck(await config(`  base_url: ${slow.url}\n  judge: judge-model`), {}, { smoke: false, cache: 'off' })
      while (slow.requests.length === 0) await new Promise((done) => setTimeout(done, 5))
      early!.cancel()
      await assert.rejects(early!.done, (error: Error) => error instanceof InputError && !/no complete answer within/.test(error.message))
      assert.equal(slow.requests.length, 1)
    } finally {
      await slow.close()
    }
  })
})
