import assert from 'node:assert/strict'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { after, before, describe, test } from 'node:test'
import { fakeReply, judgeByRule, startFakeModelServer, type FakeModelServer } from '../../src/entry/testing/fake-model-server.ts'
import { STOP_WORD } from '../../src/play/simulated-user/simulated-user-prompt.ts'
import { readAllAttempts } from '../../src/records/journal/read-run.ts'
import type { Attempt } from '../../src/records/journal/records.ts'
import { makeProject, onlyRun, runInProcess } from './harness.ts'
import { convyYml } from '../support/convy-yml.ts'

const CONVY_YML = convyYml({
  models: { apiKey: 'test-key', maxTries: 1 },
  agents: ['  broken:\n    protocol: json\n    url: ${CONVY_BASE_URL}/no-such-route\n    body: { message: "{text}" }\n    reply: answer\n'],
})

// The simulated user's instructions say how it behaves; the fake model plays them by rule.
const SCENARIOS = {
  'scenarios/stops.yml': 'user: say hello, then stop\nmax_turns: 4\njudge: [The agent answered]\n',
  'scenarios/talks-on.yml': 'user: never stop talking\nmax_turns: 3\njudge: [The agent answered]\n',
  'scenarios/user-fails.yml': 'user: your model breaks on the second line\nmax_turns: 4\njudge: [The agent answered]\n',
  'scenarios/scripted.yml': 'script: [hello, bye]\nchecks: [{ contains: bye }]\n',
}

describe('every attempt records how its conversation ended', () => {
  let models: FakeModelServer
  before(async () => {
    models = await startFakeModelServer({
      user: ({ instructions, dialogue }) => {
        const said = dialogue.filter((line) => line.role === 'user').length
        if (instructions.startsWith('say hello')) return said === 0 ? 'hello' : STOP_WORD
        return `line ${said + 1}`
      },
      handler: (request) =>
        request.user?.instructions.startsWith('your model breaks') && request.user.dialogue.length > 0 ? fakeReply.error(400, 'the model is unknown') : undefined,
      judge: judgeByRule(() => true),
    })
  })
  after(() => models.close())

  async function play(agent: string, files: Record<string, string>): Promise<{ dir: string; attempts: Map<string, Attempt> }> {
    const project = await makeProject({ 'convy.yml': CONVY_YML, ...files })
    const result = await runInProcess(['run', agent], { cwd: project, env: { CONVY_BASE_URL: models.url } })
    assert.ok(result.code === 0 || result.code === 1, result.stderr)
    const dir = await onlyRun(project, agent)
    return { dir, attempts: new Map((await readAllAttempts(dir)).map((a) => [a.scenario, a])) }
  }

  test('user_stop, max_turns, model_error and a script that ran out are told apart', async () => {
    const { attempts } = await play('echo', SCENARIOS)
    const ending = (id: string) => [attempts.get(id)?.endedBy, attempts.get(id)?.verdict]
    assert.deepEqual(ending('stops'), ['user_stop', 'passed'])
    assert.deepEqual(ending('talks-on'), ['max_turns', 'passed'])
    assert.equal(attempts.get('talks-on')!.turns.filter((t) => t.role === 'user').length, 3, 'cut off at max_turns: 3')
    assert.deepEqual(ending('user-fails'), ['model_error', 'no_verdict'])
    assert.deepEqual(ending('scripted'), ['user_stop', 'passed'], "a script's last line is the user's last word")
  })

  test('an agent that fails a turn ends its conversation with agent_error', async () => {
    const { attempts } = await play('broken', { 'scenarios/stops.yml': SCENARIOS['scenarios/stops.yml'] })
    assert.deepEqual([attempts.get('stops')?.endedBy, attempts.get('stops')?.verdict], ['agent_error', 'agent_error'])
  })

  test('a judge that fails after the user stopped leaves the ending as it was', async () => {
    models.enqueue(fakeReply.text('hello'), fakeReply.text(STOP_WORD), fakeReply.error(400, 'the judge model is unknown'))
    const { attempts } = await play('echo', { 'scenarios/stops.yml': SCENARIOS['scenarios/stops.yml'] })
    assert.deepEqual([attempts.get('stops')?.endedBy, attempts.get('stops')?.verdict], ['user_stop', 'no_verdict'])
  })

  test('the report shows a conversation cut off at max_turns as cut off, and no other', async () => {
    const { dir } = await play('echo', { 'scenarios/stops.yml': SCENARIOS['scenarios/stops.yml'], 'scenarios/talks-on.yml': SCENARIOS['scenarios/talks-on.yml'] })
    const page = await readFile(join(dir, 'report.html'), 'utf8')
    const attemptOf = (id: string) => page.slice(page.indexOf(`<details class="scn" id="scenario-${id}`)).split('</details></div></details>')[0]!
    assert.match(attemptOf('talks-on'), /class="badge e-cut"[^>]*>Cut off</)
    assert.match(attemptOf('talks-on'), /cut off at max_turns, before the user ended it/)
    assert.doesNotMatch(attemptOf('stops'), /Cut off/)
    assert.match(attemptOf('stops'), /the user ended it/)
  })
})
