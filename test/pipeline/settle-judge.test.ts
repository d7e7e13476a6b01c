import assert from 'node:assert/strict'
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { after, before, describe, test } from 'node:test'
import type { PipelineContext } from '../../src/app/pipeline/context.ts'
import { settleWithBaseJudge } from '../../src/app/pipeline/settle-judge.ts'
import { terminalPrinters } from '../../src/entry/printers/index.ts'
import { processWriter } from '../../src/entry/cli/writer.ts'
import { fakeReply, judgeAnswer, startFakeModelServer, type FakeModelServer } from '../../src/entry/testing/fake-model-server.ts'
import { STOP_WORD } from '../../src/play/simulated-user/simulated-user-prompt.ts'
import { readTally } from '../../src/records/tally/read-tally.ts'
import { makeProject, runInProcess } from '../cli/harness.ts'

// Issue 38, item 2: settle-judge.ts, on run folders the real CLI recorded against a fake model server.
// Each judge is named for what it passes: `strict-judge` only an answer that says "sure", the others everything.

const convyYml = (judge: string) => `models:\n  base_url: \${CONVY_BASE_URL}\n  user: user-model\n  judge: ${judge}\n`
const SCENARIO = 'user: Ask for help, then stop.\njudge: [The agent agreed to help]\nmax_turns: 1\n'

describe('settleWithBaseJudge: the base branch’s judge decides both sides', () => {
  let models: FakeModelServer
  let line = 'sure thing'
  let dir: string
  let ctx: PipelineContext
  const written: string[] = []
  before(async () => {
    models = await startFakeModelServer({
      user: ({ dialogue }) => (dialogue.length === 0 ? line : STOP_WORD),
      handler: ({ model, judge }) => {
        if (!judge) return undefined
        const pass = model !== 'strict-judge' || judge.dialogue.some((l) => l.role === 'agent' && l.text.includes('sure'))
        return fakeReply.text(judgeAnswer(judge.claims.map(() => ({ pass, reason: model }))))
      },
    })
    dir = await makeProject({ 'convy.yml': convyYml('old-judge'), 'scenarios/help.yml': SCENARIO })
    ctx = { cwd: dir, env: { CONVY_BASE_URL: models.url }, stdout: { write: (t) => void written.push(t) }, stderr: { write: (t) => void written.push(t) }, interactive: false, signal: new AbortController().signal, canStripTypes: false, printers: terminalPrinters, now: () => new Date(), writer: processWriter }
  })
  after(() => models.close())

  const record = async (judge: string, said: string, ...extra: string[]) => {
    await writeFile(join(dir, 'convy.yml'), convyYml(judge))
    line = said
    const played = await runInProcess(['run', 'echo', '-k', '3', '--parallel', '1', ...extra], { cwd: dir, env: { CONVY_BASE_URL: models.url } })
    const id = /run (echo\/\S+)/.exec(played.stdout + played.stderr)![1]!
    const runDir = join(dir, 'results', id)
    return { tally: await readTally(runDir), dir: runDir }
  }
  const judgeCalls = (model: string) => models.requests.filter((r) => r.kind === 'judge' && (r.body as { model: string }).model === model).length

  test("main's judge moved since the baseline was made: the baseline's dialogues are judged by it too, and neither side keeps its own judge's verdicts", async () => {
    const baseline = await record('old-judge', 'sure thing')
    const pr = await record('lenient-judge', 'no way')
    const calls = judgeCalls('strict-judge')
    const settled = await settleWithBaseJudge(ctx, { baseJudge: { model: 'strict-judge', baseUrl: '${CONVY_BASE_URL}', env: {} }, base: 'main', before: baseline, after: pr })
    assert.deepEqual(settled.unmet, [])
    assert.equal(settled.changed, true)
    assert.equal(judgeCalls('strict-judge') - calls, 3 + 3, "the PR's three dialogues, then the baseline's three")
    assert.deepEqual([settled.before.manifest.models.judge, settled.after.manifest.models.judge], ['strict-judge', 'strict-judge'])
    assert.deepEqual([settled.before.manifest.rejudgeOf, settled.after.manifest.rejudgeOf], [baseline.tally.manifest.id, pr.tally.manifest.id])
    const passed = (tally: typeof settled.after) => [...tally.scenarios.values()].map((s) => s.passed)
    assert.deepEqual([passed(settled.before), passed(settled.after)], [[3], [0]])
    assert.equal(settled.notes.length, 2)
    assert.match(settled.notes[0]!, /this pull request's own judge \("lenient-judge" at [^)]*\) passed 3 of 3 attempts \(pass rate 100%\); main's judge passes 0 of 3 attempts/)
    assert.match(settled.notes[1]!, /^The baseline was judged by "old-judge", not main's judge now: its 3 recorded dialogues were judged again/)
  })

  test("both sides already judged by main's judge at its endpoint: nothing is asked", async () => {
    const baseline = await record('strict-judge', 'sure thing')
    const pr = await record('strict-judge', 'sure thing')
    const calls = models.requests.length
    const settled = await settleWithBaseJudge(ctx, { baseJudge: { model: 'strict-judge', baseUrl: '${CONVY_BASE_URL}', env: {} }, base: 'main', before: baseline, after: pr })
    assert.deepEqual([settled.changed, settled.notes, settled.unmet], [false, [], []])
    assert.equal(models.requests.length, calls)
  })

  test("a baseline by main's judge but judged otherwise (other samples per attempt): judged again like the pull request's run", async () => {
    const baseline = await record('strict-judge', 'sure thing', '--judge-samples', '3')
    const pr = await record('strict-judge', 'sure thing')
    const calls = judgeCalls('strict-judge')
    const settled = await settleWithBaseJudge(ctx, { baseJudge: { model: 'strict-judge', baseUrl: '${CONVY_BASE_URL}', env: {} }, base: 'main', before: baseline, after: pr })
    assert.deepEqual(settled.unmet, [])
    assert.equal(judgeCalls('strict-judge') - calls, 3, "the baseline's three dialogues, one sample each")
    assert.equal(settled.after, pr.tally)
    assert.equal(settled.before.manifest.settings.judgeSamples, 1)
    assert.match(settled.notes.join(' '), /^The baseline was judged otherwise \(samples\): its 3 recorded dialogues were judged again/)
  })

  test("the same model name at another endpoint is another judge: main's is asked", async () => {
    const baseline = await record('strict-judge', 'sure thing')
    const pr = await record('strict-judge', 'sure thing')
    // main's judge reads its address from a variable its step sets: the same server under another name.
    const other = models.url.replace('127.0.0.1', 'localhost')
    const settled = await settleWithBaseJudge(ctx, { baseJudge: { model: 'strict-judge', baseUrl: '${JUDGE_URL}', env: { JUDGE_URL: other } }, base: 'main', before: baseline, after: pr })
    assert.deepEqual(settled.unmet, [])
    assert.equal(settled.after.manifest.models.judgeEndpoint, `localhost:${new URL(models.url).port}/v1`)
    assert.equal(settled.before.manifest.models.judgeEndpoint, `localhost:${new URL(models.url).port}/v1`)
  })

  test("main's judge that cannot be made out (a variable unset): evidence missing, both sides as they were", async () => {
    const baseline = await record('old-judge', 'sure thing')
    const pr = await record('lenient-judge', 'no way')
    const settled = await settleWithBaseJudge(ctx, { baseJudge: { model: 'strict-judge', baseUrl: '${NOWHERE_URL}', env: {} }, base: 'main', before: baseline, after: pr })
    assert.equal(settled.changed, false)
    assert.equal(settled.after, pr.tally)
    assert.match(settled.unmet[0]!, /^main's judge \("strict-judge"\) could not judge this pull request's dialogues \(.*NOWHERE_URL/)
  })
})
