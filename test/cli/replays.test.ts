import assert from 'node:assert/strict'
import { join } from 'node:path'
import { after, before, describe, test } from 'node:test'
import { judgeByRule, startFakeModelServer, type FakeModelServer } from '../../src/entry/testing/fake-model-server.ts'
import { STOP_WORD } from '../../src/play/simulated-user/simulated-user-prompt.ts'
import { readAllAttempts } from '../../src/records/journal/read-run.ts'
import { makeProject, runInProcess } from './harness.ts'
import { modelsYml } from '../support/convy-yml.ts'

// A reviewer that blames the simulated user for every failure, through the real CLI against a fake
// model server: the PR's broken agent (the echo agent, told what to say through the user's line) has
// each failure relabelled user_error, and each is replayed once, unreviewed; the replays decide.

const CONVY_YML = modelsYml()
const SCENARIO = 'user: Ask for help, then stop.\njudge: [The agent agreed to help]\nmax_turns: 1\n'

describe('replays of user_error attempts', () => {
  let models: FakeModelServer
  let line = 'sure thing'
  before(async () => {
    models = await startFakeModelServer({
      user: ({ dialogue }) => (dialogue.length === 0 ? line : STOP_WORD),
      judge: judgeByRule((_claim, dialogue) => dialogue.some((l) => l.role === 'agent' && l.text.includes('sure'))),
      review: () => ({ mistakes: [{ kind: 'ignored_instructions', line: 1, note: 'blamed, whatever happened' }], reason: 'always the user', decided: true }),
    })
  })
  after(() => models.close())

  test('a reviewer that blames the user for every failure cannot hide a break: the replays are judged, unreviewed, and the gate fails', async () => {
    const dir = await makeProject({ 'convy.yml': CONVY_YML, 'scenarios/help.yml': SCENARIO })
    const env = { CONVY_BASE_URL: models.url }
    const ids: string[] = []
    for (const said of ['sure thing', 'no way']) {
      line = said
      const played = await runInProcess(['run', 'echo', '-k', '5', '--parallel', '2'], { cwd: dir, env })
      ids.push(/run (echo\/\S+)/.exec(played.stdout + played.stderr)![1]!)
    }
    const attempts = await readAllAttempts(join(dir, 'results', ids[1]!))
    const originals = attempts.filter((a) => a.replayOf === undefined).sort((a, b) => a.attempt - b.attempt)
    const replays = attempts.filter((a) => a.replayOf !== undefined).sort((a, b) => a.attempt - b.attempt)
    assert.deepEqual(originals.map((a) => [a.attempt, a.verdict]), [1, 2, 3, 4, 5].map((n) => [n, 'user_error']))
    assert.deepEqual(replays.map((a) => [a.attempt, a.replayOf, a.verdict, a.review]), [1, 2, 3, 4, 5].map((n) => [n + 5, n, 'failed', undefined]))

    const compared = await runInProcess(['compare', ids[0]!, ids[1]!, '--fail-on', 'worse'], { cwd: dir, env })
    assert.equal(compared.code, 1, compared.stdout + compared.stderr)
    assert.match(compared.stderr, /gate \(fail-on: worse\): fail: Worse than the baseline: help\./)
    assert.match(compared.stdout, /help 5\/5 → 0\/5/)
  })
})
