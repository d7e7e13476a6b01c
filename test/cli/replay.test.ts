import assert from 'node:assert/strict'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { after, before, test } from 'node:test'
import { readAllAttempts, listRuns } from '../../src/records/journal/read-run.ts'
import { judgeByRule, scriptedUser, startFakeModelServer, type FakeModelServer } from '../../src/entry/testing/fake-model-server.ts'
import { startFakeAgentServer, type FakeAgentServer } from '../fakes/agent-server.ts'
import { makeProject, runInProcess } from './harness.ts'
import { chatBotYml, convyYml } from '../support/convy-yml.ts'

const CONVY_YML = convyYml({ models: { urlVariable: 'MODELS_URL' }, agents: [chatBotYml('bot')] })

let models: FakeModelServer
let bot: FakeAgentServer
before(async () => {
  models = await startFakeModelServer({
    user: scriptedUser(['where is my order?', 'it is 4821', 'thanks ###STOP###']),
    judge: judgeByRule((_claim, dialogue) => dialogue.some((l) => l.role === 'agent' && l.text.includes('on its way'))),
  })
  bot = await startFakeAgentServer()
})
after(async () => {
  await models.close()
  await bot.close()
})

test('replay sends the recorded user lines again, asks only the judge, and makes a new run', async () => {
  const dir = await makeProject({
    'convy.yml': CONVY_YML,
    'scenarios/order.yml': 'user: Your order is late; its number is 4821.\njudge: [The agent says the order is on its way]\nchecks: [{contains: order number}]\n',
  })
  const env = { MODELS_URL: models.url, BOT_URL: bot.url }
  assert.equal((await runInProcess(['run', 'bot', '-k', '3'], { cwd: dir, env })).code, 0)
  const [original] = await listRuns(join(dir, 'results'))
  const userCalls = () => models.requests.filter((r) => r.kind === 'user').length
  const judgeCalls = () => models.requests.filter((r) => r.kind === 'judge').length
  const before = { user: userCalls(), judge: judgeCalls() }

  const replayed = await runInProcess(['replay', original!.id], { cwd: dir, env })
  assert.equal(replayed.code, 0, replayed.stderr)
  assert.match(replayed.stderr, /replaying .*: 3 attempts with their recorded user lines/)
  assert.equal(userCalls(), before.user, 'a replay must not call the simulated user')
  assert.equal(judgeCalls() - before.judge, 3)

  const runs = await listRuns(join(dir, 'results'))
  const copy = runs.find((r) => r.id !== original!.id)!
  const manifest = JSON.parse(await readFile(join(copy.dir, 'run.json'), 'utf8'))
  assert.equal(manifest.replayOf, original!.id)
  assert.equal(manifest.models.user, null)
  const lines = (attempts: Awaited<ReturnType<typeof readAllAttempts>>) =>
    attempts.sort((a, b) => a.attempt - b.attempt).map((a) => a.turns.filter((t) => t.role === 'user').map((t) => t.text))
  assert.deepEqual(lines(await readAllAttempts(copy.dir)), lines(await readAllAttempts(original!.dir)))
  assert.deepEqual(lines(await readAllAttempts(copy.dir))[0], ['where is my order?', 'it is 4821', 'thanks'])

  const checksOnly = await runInProcess(['replay', original!.id, '--no-judge'], { cwd: dir, env: { BOT_URL: bot.url } })
  assert.equal(checksOnly.code, 0, checksOnly.stderr)
  assert.equal(judgeCalls() - before.judge, 3, '--no-judge called the judge')
  // The check still decides each attempt; the claim is left undecided, not counted as held.
  const checked = (await listRuns(join(dir, 'results'))).find((r) => r.id !== original!.id && r.id !== copy.id)!
  for (const attempt of await readAllAttempts(checked.dir)) {
    assert.deepEqual(attempt.claims, [])
    assert.notEqual(attempt.verdict, 'not_decided')
  }

  const resumed = await runInProcess(['resume', copy.id], { cwd: dir, env })
  assert.equal(resumed.code, 2)
  assert.match(resumed.stderr, /is a replay of/)
})

test('replay --no-judge of a judge-only scenario decides nothing, and says so instead of a pass rate', async () => {
  const dir = await makeProject({ 'convy.yml': CONVY_YML, 'scenarios/order.yml': 'user: Your order is late; its number is 4821.\njudge: [The agent says the order is on its way]\n' })
  const env = { MODELS_URL: models.url, BOT_URL: bot.url }
  assert.equal((await runInProcess(['run', 'bot', '-k', '2'], { cwd: dir, env })).code, 0)
  const [original] = await listRuns(join(dir, 'results'))
  const result = await runInProcess(['replay', original!.id, '--no-judge'], { cwd: dir, env: { BOT_URL: bot.url } })
  assert.equal(result.code, 0, result.stderr)
  assert.match(result.stdout, /bot: pass rate none · 0 of 2 attempts counted \(below 50%\) · 2 not decided/)
  const replayed = (await listRuns(join(dir, 'results'))).find((r) => r.id !== original!.id)!
  assert.deepEqual((await readAllAttempts(replayed.dir)).map((a) => a.verdict), ['not_decided', 'not_decided'])
})
