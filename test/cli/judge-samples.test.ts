import assert from 'node:assert/strict'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { after, before, describe, test } from 'node:test'
import { startFakeModelServer, type FakeModelServer } from '../../src/entry/testing/fake-model-server.ts'
import { STOP_WORD } from '../../src/play/simulated-user/simulated-user-prompt.ts'
import { readAllAttempts, readManifest } from '../../src/records/journal/read-run.ts'
import { startFakeAgentServer, type FakeAgentServer } from '../fakes/agent-server.ts'
import { FAKE_MODELS_AND_BOT_YML, makeProject, runInProcess, topicScenario } from './harness.ts'

const CONVY_YML = FAKE_MODELS_AND_BOT_YML
const scenarioFile = topicScenario

/**
 * Judge samples through whole runs: the judge is a fake OpenAI-compatible server whose decisions a
 * test scripts per topic and per call (a judge that flips, or one that holds), the agent a fake bot.
 * Attempts run one at a time, so each attempt's samples are consecutive calls.
 */
describe('judge samples, rejudge and judge-unstable', () => {
  let models: FakeModelServer
  let bot: FakeAgentServer
  /** The judge's decision on a topic's nth call (0-based); a test swaps it. */
  let decide: (topic: string, call: number) => boolean = () => true
  const calls = new Map<string, number>()
  before(async () => {
    models = await startFakeModelServer({
      user: ({ dialogue }) => (dialogue.length === 0 ? 'hello, a question' : STOP_WORD),
      judge: ({ claims }) => {
        const topic = /about the (\w+)/.exec(claims[0]!)![1]!
        const call = calls.get(topic) ?? 0
        calls.set(topic, call + 1)
        return claims.map(() => ({ pass: decide(topic, call), reason: `call ${call}` }))
      },
    })
    bot = await startFakeAgentServer()
  })
  after(async () => {
    await models.close()
    await bot.close()
  })

  const project = () => makeProject({ 'convy.yml': CONVY_YML, 'scenarios/shaky.yml': scenarioFile('shaky'), 'scenarios/steady.yml': scenarioFile('steady') })
  const env = () => ({ CONVY_BASE_URL: models.url, BOT_URL: bot.url })
  const judgeCalls = () => models.requests.filter((r) => r.kind === 'judge').length
  const userCalls = () => models.requests.filter((r) => r.kind === 'user').length
  async function cli(dir: string, ...argv: string[]) {
    calls.clear()
    const result = await runInProcess(argv, { cwd: dir, env: env() })
    return { ...result, id: /run (support_bot\/\S+)/.exec(result.stdout + result.stderr)?.[1] }
  }

  test('run --judge-samples 3 keeps each claim’s votes, decides by their majority, and labels a judge that flips judge-unstable', async () => {
    const dir = await project()
    // shaky: the judge says yes on every other call; steady: always yes.
    decide = (topic, call) => topic === 'steady' || call % 2 === 0
    const before = judgeCalls()
    const played = await cli(dir, 'run', 'support_bot', '-k', '5', '--parallel', '1', '--judge-samples', '3')
    assert.ok(played.id, played.stdout + played.stderr)
    assert.equal(judgeCalls() - before, 2 * 5 * 3, 'three judgements per attempt')

    const folder = join(dir, 'results', played.id)
    const attempts = await readAllAttempts(folder)
    const shaky = attempts.filter((a) => a.scenario === 'shaky').sort((a, b) => a.attempt - b.attempt)
    // Calls 0–14 alternate yes/no: the attempts' votes are [y n y], [n y n], [y n y], …; each verdict is their majority.
    assert.deepEqual(shaky.map((a) => a.claims[0]!.votes), [[true, false, true], [false, true, false], [true, false, true], [false, true, false], [true, false, true]])
    assert.deepEqual(shaky.map((a) => a.verdict), ['passed', 'failed', 'passed', 'failed', 'passed'])
    assert.ok(attempts.filter((a) => a.scenario === 'steady').every((a) => a.claims[0]!.votes!.every(Boolean) && a.verdict === 'passed'))
    const manifest = await readManifest(folder)
    assert.equal(manifest.settings.judgeSamples, 3)
    assert.equal(manifest.prompts?.judgeSamples, 3)

    const report = await readFile(join(folder, 'report.html'), 'utf8')
    const section = (id: string) => {
      const start = report.indexOf(`id="scenario-${id}"`)
      assert.ok(start >= 0, `no scenario ${id} in the report`)
      const next = report.indexOf('<details class="scn"', start)
      return report.slice(start, next < 0 ? undefined : next)
    }
    assert.match(section('shaky'), /judge-unstable/)
    assert.match(section('shaky'), /Judge: flip rate 67% over 5 attempts/)
    assert.doesNotMatch(section('steady'), /judge-unstable/)
    assert.match(section('steady'), /Judge: flip rate 0% over 5 attempts/)
  })

  test('a tie among the samples is no verdict, never the first sample’s word: --judge-samples 2 with a judge that disagrees with itself', async () => {
    const dir = await project()
    // shaky: yes, no on each attempt's two samples; steady: always yes.
    decide = (topic, call) => topic === 'steady' || call % 2 === 0
    const played = await cli(dir, 'run', 'support_bot', '-k', '3', '--parallel', '1', '--judge-samples', '2')
    assert.ok(played.id, played.stdout + played.stderr)
    const attempts = await readAllAttempts(join(dir, 'results', played.id))
    const shaky = attempts.filter((a) => a.scenario === 'shaky')
    assert.deepEqual(shaky.map((a) => a.verdict), ['no_verdict', 'no_verdict', 'no_verdict'])
    assert.match(shaky[0]!.error ?? '', /its 2 samples tied on claim 1 \(1 for, 1 against\)/)
    assert.deepEqual(attempts.filter((a) => a.scenario === 'steady').map((a) => a.verdict), ['passed', 'passed', 'passed'])
  })

  test('rejudge asks the judge again about the recorded dialogues only, into a new run that says which run it rejudged', async () => {
    const dir = await project()
    decide = () => true
    const played = await cli(dir, 'run', 'support_bot', '-k', '2', '--parallel', '1')
    assert.ok(played.id)
    const agentTurns = bot.requests.length
    const users = userCalls()
    const judged = judgeCalls()
    decide = (topic, call) => topic === 'steady' || call % 2 === 1
    const again = await cli(dir, 'rejudge', played.id, '--samples', '3', '--parallel', '1')
    assert.equal(again.code, 0, again.stdout + again.stderr)
    assert.ok(again.id && again.id !== played.id, again.stdout + again.stderr)
    assert.equal(bot.requests.length, agentTurns, 'no agent was called')
    assert.equal(userCalls(), users, 'no simulated user was called')
    assert.equal(judgeCalls() - judged, 2 * 2 * 3)

    const folder = join(dir, 'results', again.id)
    const manifest = await readManifest(folder)
    assert.equal(manifest.rejudgeOf, played.id)
    const original = await readAllAttempts(join(dir, 'results', played.id))
    const rejudged = await readAllAttempts(folder)
    const shaky = rejudged.filter((a) => a.scenario === 'shaky').sort((a, b) => a.attempt - b.attempt)
    assert.deepEqual(shaky.map((a) => a.claims[0]!.votes), [[false, true, false], [true, false, true]])
    assert.deepEqual(shaky.map((a) => a.verdict), ['failed', 'passed'])
    // The dialogues are the recorded ones, word for word.
    const turns = (list: typeof original) => list.map((a) => `${a.scenario}#${a.attempt} ${a.turns.map((t) => t.text).join('|')}`).sort()
    assert.deepEqual(turns(rejudged), turns(original))
  })

  test('a scenario that dropped only as far as the judge disagrees with itself is judge-unstable, not Worse, and leaves the gate inconclusive; a judge that holds its decision fails it', async () => {
    const dir = await project()
    decide = () => true
    const baseline = await cli(dir, 'run', 'support_bot', '-k', '5', '--parallel', '1', '--judge-samples', '3')
    // shaky: votes [n y n] for every attempt (majority fail, the judge split); steady: now always no.
    decide = (topic, call) => topic === 'shaky' && call % 3 === 1
    const after = await cli(dir, 'run', 'support_bot', '-k', '5', '--parallel', '1', '--judge-samples', '3')
    assert.ok(baseline.id && after.id)

    const json = JSON.parse((await cli(dir, 'compare', baseline.id, after.id, '--json')).stdout) as {
      verdict: string
      scenarios: { worse: { id: string }[]; same: { id: string; judgeUnstable: string | null; after: { passed: number; judged: number; judge: { flipRate: number; unstable: boolean } } }[] }
    }
    assert.deepEqual(json.scenarios.worse.map((s) => s.id), ['steady'], 'the consistent judge’s drop is the agent’s')
    const shaky = json.scenarios.same.find((s) => s.id === 'shaky')!
    assert.deepEqual([shaky.after.passed, shaky.after.judged, shaky.judgeUnstable, shaky.after.judge.unstable], [0, 5, 'worse', true])
    const markdown = (await cli(dir, 'compare', baseline.id, after.id, '--markdown')).stdout
    assert.match(markdown, /- shaky: judge-unstable: it moved down beyond noise, but the judge disagrees with itself here \(judge flip rate 0% before, 67% after; both runs pooled: judge noise Ĵ = [\d.]+, agent spread Â = [\d.]+\)/)
    // Said once, under Worth a look: not again in the Same table.
    assert.equal(markdown.split('shaky').length - 1, 1, markdown)
    const gated = await cli(dir, 'compare', baseline.id, after.id, '--fail-on', 'worse')
    assert.equal(gated.code, 1, 'steady is Worse: the gate fails')

    // With only the judge-unstable scenario dropping, the comparison says so first and the gate is
    // inconclusive with the evidence missing: a withheld drop is no pass (issue 21), exit 3.
    decide = (topic, call) => topic === 'steady' || call % 3 === 1
    const unstable = await cli(dir, 'run', 'support_bot', '-k', '5', '--parallel', '1', '--judge-samples', '3')
    assert.ok(unstable.id)
    const heading = (await cli(dir, 'compare', baseline.id, unstable.id, '--markdown', '--fail-on', 'never')).stdout.split('\n')[2]
    assert.equal(heading, '### ⚖️ Inconclusive, evidence missing · Judge-unstable · 1 scenario moved only as the judge disagrees with itself · support\\_bot')
    const inconclusive = await cli(dir, 'compare', baseline.id, unstable.id, '--fail-on', 'worse')
    assert.equal(inconclusive.code, 3, inconclusive.stderr)
    assert.match(inconclusive.stderr, /gate \(fail-on: worse\): inconclusive \(evidence missing\): Evidence missing: shaky dropped beyond noise, but the judge disagrees with itself/)
  })

  test('each judge sample has its own entry in the model cache: the samples stay independent, and a second run calls nothing', async () => {
    const dir = await project()
    decide = (_topic, call) => call % 2 === 0
    const before = judgeCalls()
    const first = await cli(dir, 'run', 'support_bot', '-k', '2', '--parallel', '1', '--judge-samples', '3', '--cache', 'readwrite')
    assert.ok(first.id)
    assert.equal(judgeCalls() - before, 2 * 2 * 3, 'sample 2 and 3 are asked, not read back from sample 1')
    const second = await cli(dir, 'run', 'support_bot', '-k', '2', '--parallel', '1', '--judge-samples', '3', '--cache', 'readwrite')
    assert.ok(second.id)
    assert.equal(judgeCalls() - before, 2 * 2 * 3, 'the second run is answered from the cache')
    const votes = async (id: string) => (await readAllAttempts(join(dir, 'results', id))).map((a) => `${a.scenario}#${a.attempt} ${JSON.stringify(a.claims[0]!.votes)}`).sort()
    assert.deepEqual(await votes(second.id), await votes(first.id))
  })
})
