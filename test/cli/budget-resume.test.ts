import assert from 'node:assert/strict'
import { join } from 'node:path'
import { after, before, test } from 'node:test'
import { listRuns, readAllAttempts } from '../../src/records/journal/read-run.ts'
import { judgeByRule, startFakeModelServer, type FakeModelServer } from '../../src/entry/testing/fake-model-server.ts'
import { makeProject, runInProcess } from './harness.ts'
import { modelsYml } from '../support/convy-yml.ts'

let models: FakeModelServer
before(async () => {
  models = await startFakeModelServer({ user: () => 'hello ###STOP###', judge: judgeByRule(() => true) })
})
after(async () => models.close())

const CONVY_YML = modelsYml({ urlVariable: 'MODELS_URL', prices: { 'user-model': [1000, 2000], 'judge-model': [1000, 2000] } })

test('a run stopped for budget says how to resume in the form that was used (npx), and resume --budget-usd plays the rest', async () => {
  const dir = await makeProject({ 'convy.yml': CONVY_YML, 'scenarios/a.yml': 'user: Say hello.\njudge: [The agent repeats the greeting]\n' })
  // npx (and npm exec) set npm_command=exec: a user who typed `npx convy-ci run` has no `convy-ci` on PATH.
  const env = { MODELS_URL: models.url, npm_command: 'exec' }
  const stopped = await runInProcess(['run', 'echo', '-k', '6', '--parallel', '1', '--budget-usd', '0.5'], { cwd: dir, env })
  assert.equal(stopped.code, 1, stopped.stderr)
  const [run] = await listRuns(join(dir, 'results'))
  const played = (await readAllAttempts(run!.dir)).length
  assert.ok(played > 0 && played < 6, `played ${played}`)
  assert.match(stopped.stderr, new RegExp(`resume with: npx convy-ci resume ${run!.id.replace('/', '\\/')} --budget-usd <a larger budget>`))

  const help = await runInProcess(['resume', '--help'], { cwd: dir })
  assert.match(help.stdout, /--budget-usd <dollars>/)
  const resumed = await runInProcess(['resume', run!.id, '--budget-usd', '1000'], { cwd: dir, env: { MODELS_URL: models.url } })
  assert.equal(resumed.code, 0, resumed.stderr)
  assert.equal((await readAllAttempts(run!.dir)).length, 6)
})
