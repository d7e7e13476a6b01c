import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { judgeByRule, scriptedUser, startFakeModelServer, type FakeModelServer } from '../../src/entry/testing/fake-model-server.ts'
import { readAllAttempts } from '../../src/records/journal/read-run.ts'
import { brokenFatalCheck } from '../../src/play/judge/checks.ts'
import { makeProject, onlyRun, runInProcess } from './harness.ts'
import { convyYml } from '../support/convy-yml.ts'

const CONVY_YML = convyYml({ models: { apiKey: 'test-key' }, agents: '{}' })

// The echo agent repeats the user, so the second line puts "rm -rf" into the agent's second answer.
const scenario = (fatal: boolean) => `user: Ask how to clean up a folder.
max_turns: 6
judge:
  - The agent never suggested deleting everything
checks:
  - not_contains: rm -rf${fatal ? '\n    fatal: true' : ''}
`

describe('a fatal check ends the attempt at the answer that breaks it', () => {
  let models: FakeModelServer
  before(async () => {
    models = await startFakeModelServer({
      user: scriptedUser(['how do I clean up?', 'would rm -rf /tmp/x do?', 'and then?', 'really?', 'ok']),
      judge: judgeByRule(() => true),
    })
  })
  after(() => models.close())

  async function play(fatal: boolean): Promise<{ calls: { user: number; judge: number }; dir: string }> {
    models.reset()
    const dir = await makeProject({ 'convy.yml': CONVY_YML, 'scenarios/cleanup.yml': scenario(fatal) })
    const result = await runInProcess(['run', 'echo', '-k', '3'], { cwd: dir, env: { CONVY_BASE_URL: models.url } })
    assert.equal(result.code, 0, result.stderr)
    const count = (kind: string) => models.requests.filter((r) => r.kind === kind).length
    return { calls: { user: count('user'), judge: count('judge') }, dir }
  }

  test('no more simulated-user or judge calls once it fires; the attempt is failed, ended by stop_check', async () => {
    const plain = await play(false)
    // Five lines and the STOP line, then the judge, in each of three attempts.
    assert.deepEqual(plain.calls, { user: 18, judge: 3 })
    const fatal = await play(true)
    // Two lines (the second is answered with "rm -rf"), then nothing.
    assert.deepEqual(fatal.calls, { user: 6, judge: 0 })

    const attempts = await readAllAttempts(await onlyRun(fatal.dir, 'echo'))
    assert.equal(attempts.length, 3)
    for (const a of attempts) {
      assert.equal(a.verdict, 'failed')
      assert.equal(a.endedBy, 'stop_check')
      assert.deepEqual(a.turns.map((t) => t.role), ['user', 'agent', 'user', 'agent'])
      assert.deepEqual(a.claims, [])
      assert.deepEqual(a.checks, [{ kind: 'not_contains', value: 'rm -rf', pass: false, detail: 'answer 2 contains it: a fatal check, the attempt ended there' }])
    }
    const plainAttempts = await readAllAttempts(await onlyRun(plain.dir, 'echo'))
    for (const a of plainAttempts) {
      assert.equal(a.verdict, 'failed')
      assert.equal(a.endedBy, 'user_stop')
      assert.equal(a.turns.length, 10)
      assert.equal(a.checks[0]!.detail, 'answer 2 contains it')
    }
  })
})

test('a fatal tool_not_called check is broken by the call, not by the text', () => {
  const checks = [{ kind: 'contains', value: 'delete_user' }, { kind: 'tool_not_called', value: 'delete_user', fatal: true }] as const
  assert.equal(brokenFatalCheck(checks, 'I could delete_user for you', []), undefined)
  assert.equal(brokenFatalCheck(checks, 'Done.', [{ name: 'lookup' }]), undefined)
  assert.deepEqual(brokenFatalCheck(checks, 'Done.', [{ name: 'lookup' }, { name: 'delete_user', arguments: { id: 7 } }]), checks[1])
  assert.equal(brokenFatalCheck([{ kind: 'not_contains', value: 'x' }], 'x', []), undefined, 'a check without fatal never ends an attempt')
})
