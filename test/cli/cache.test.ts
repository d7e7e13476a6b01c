import assert from 'node:assert/strict'
import { join } from 'node:path'
import { after, before, test } from 'node:test'
import { listRuns, readAllAttempts } from '../../src/records/journal/read-run.ts'
import { judgeByRule, startFakeModelServer, type FakeModelServer } from '../../src/entry/testing/fake-model-server.ts'
import { makeProject, runInProcess } from './harness.ts'
import { modelsYml } from '../support/convy-yml.ts'

let models: FakeModelServer
let calls = 0
before(async () => {
  // Every call gets a new line, as a sampling model would: attempts that shared cache entries
  // would show the same lines.
  models = await startFakeModelServer({ user: () => `hello number ${++calls} ###STOP###`, judge: judgeByRule(() => true) })
})
after(async () => models.close())

const CONVY_YML = modelsYml({ urlVariable: 'MODELS_URL', prices: { 'user-model': [1, 2], 'judge-model': [1, 2] } })

test('a second run with the cache calls no model, and every attempt keeps its own answers', async () => {
  const dir = await makeProject({ 'convy.yml': CONVY_YML, 'scenarios/a.yml': 'user: Say hello.\njudge: [The agent repeats the greeting]\n' })
  const env = { MODELS_URL: models.url }
  const firstLines = (attempts: Awaited<ReturnType<typeof readAllAttempts>>) =>
    attempts.sort((a, b) => a.attempt - b.attempt).map((a) => a.turns.find((t) => t.role === 'user')?.text)

  assert.equal((await runInProcess(['run', 'echo', '-k', '4', '--cache', 'readwrite'], { cwd: dir, env })).code, 0)
  const [first] = await listRuns(join(dir, 'results'))
  const recorded = firstLines(await readAllAttempts(first!.dir))
  assert.equal(new Set(recorded).size, 4, `attempts shared answers: ${recorded.join(' | ')}`)

  const before = models.requests.length
  const second = await runInProcess(['run', 'echo', '-k', '4', '--cache', 'read'], { cwd: dir, env })
  assert.equal(second.code, 0, second.stderr)
  assert.equal(models.requests.length, before, 'the cached run called a model')
  const runs = await listRuns(join(dir, 'results'))
  const cachedRun = runs.find((r) => r.id !== first!.id)!
  const attempts = await readAllAttempts(cachedRun.dir)
  assert.deepEqual(firstLines(attempts), recorded)
  for (const attempt of attempts) {
    assert.equal(attempt.models.user?.cachedCalls, 1)
    assert.equal(attempt.models.judge?.cachedCalls, 1)
    assert.equal(attempt.models.user?.costUsd, 0, 'a cached call costs nothing')
  }

  const bad = await runInProcess(['run', 'echo', '--cache', 'sometimes'], { cwd: dir, env })
  assert.equal(bad.code, 2)
  assert.match(bad.stderr, /--cache sometimes: expected one of off, read, write, readwrite/)
})
