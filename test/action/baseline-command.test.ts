import assert from 'node:assert/strict'
import { execFile } from 'node:child_process'
import { mkdtemp, readdir, readFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { after, before, describe, test } from 'node:test'
import { runDir } from '../../src/records/journal/run-folder.ts'
import { readHistory } from '../../src/records/tally/trend.ts'
import { startFakeGitHub, type FakeGitHub } from '../fakes/github-server.ts'
import { zipOf } from '../fakes/zip.ts'
import { pushEvent } from './events.ts'
import { describeStep, exampleWorkspace, runActionStep, type ActionStepResult } from './harness.ts'

// `convy-ci baseline` (the bundled CLI) downloads what the action uploaded on the default branch; with
// --history N it fetches the default branch's last run summaries beside the baseline, and `report` and
// `compare` draw the trend from them. One push of the action (history: 0, over made-up runs whose
// summaries it must not read) serves every case here.

const CLI = fileURLToPath(new URL('../../dist/cli.js', import.meta.url))

function cli(args: string[], env: Record<string, string>, cwd: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [CLI, ...args], { cwd, env: { PATH: process.env.PATH ?? '', ...env }, timeout: 30_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? Number(error.code) : 0, stdout, stderr })
    })
  })
}

const summaryZip = (day: number, passed: number) =>
  zipOf([
    {
      name: 'summary.json',
      data: Buffer.from(
        JSON.stringify({
          format: 1,
          run: `support_bot/2026-10-0${day}T10-00-00_000${day}`,
          agent: 'support_bot',
          commit: null,
          branch: 'main',
          startedAt: `2026-10-0${day}T10:00:00.000Z`,
          finishedAt: null,
          state: 'finished',
          k: 5,
          scenarios: [{ id: 'off-topic', attempts: 5, passed, judged: 5, errors: 0, noVerdicts: 0, medianAnswerSeconds: null, costUsd: null }],
          medianAnswerSeconds: null,
          costUsd: null,
        }),
      ),
    },
  ])

describe('convy-ci baseline, after a push of the action', () => {
  let fake: FakeGitHub
  let uploaded: string
  let uploadedDir: string
  let pushed: ActionStepResult
  let pushCalls: FakeGitHub['calls']

  before(async () => {
    fake = await startFakeGitHub()
    for (const [day, passed] of [
      [1, 5],
      [2, 3],
      [3, 4],
    ] as const) {
      const old = fake.world.startRun({ event: 'push', headBranch: 'main', headSha: 'c'.repeat(40) })
      fake.world.addArtifact(old.id, 'convy-support_bot+summary', summaryZip(day, passed))
      fake.world.finishRun(old.id, 'success')
    }
    const broken = fake.world.startRun({ event: 'push', headBranch: 'main', headSha: 'c'.repeat(40) })
    fake.world.addArtifact(broken.id, 'convy-support_bot+summary', zipOf([{ name: 'summary.json', data: Buffer.from('<html>') }]))
    fake.world.finishRun(broken.id, 'success')
    const workspace = await exampleWorkspace()
    const run = fake.world.startRun({ event: 'push', headBranch: 'main', headSha: 'a'.repeat(40) })
    const callsBefore = fake.calls.length
    pushed = await runActionStep(fake, { run, eventName: 'push', payload: pushEvent(fake.world, run.headSha), inputs: { agent: 'support_bot', scenarios: 'off-topic', history: '0', 'baseline-attempts': '5' }, workspace })
    const result = pushed
    assert.equal(result.code, 0, describeStep(result))
    pushCalls = fake.calls.slice(callsBefore)
    fake.world.finishRun(run.id, 'success')
    uploaded = result.outputs['run-id']!
    uploadedDir = runDir(join(workspace, 'results'), uploaded)
  })
  after(async () => {
    await fake.close()
  })

  describe('convy-ci baseline', () => {
    test('downloads the default branch’s latest run into results/, as the run it was', async () => {
      const here = await mkdtemp(join(tmpdir(), 'convy-local-'))
      const env = { GITHUB_TOKEN: fake.token, GITHUB_API_URL: fake.url }
      const result = await cli(['baseline', 'support_bot', '--repo', 'acme/support-bot'], env, here)
      assert.equal(result.code, 0, result.stderr)
      assert.match(result.stdout, new RegExp(`^support_bot: baseline ${uploaded} \\(workflow run \\d+ on main, commit aaaaaaa\\)$`, 'm'))
      assert.match(result.stdout, new RegExp(`compare with: convy-ci compare ${uploaded.slice(-4)} <your run>`))
      const local = runDir(join(here, 'results'), uploaded)
      for (const file of ['run.json', 'attempts.jsonl']) assert.equal(await readFile(join(local, file), 'utf8'), await readFile(join(uploadedDir, file), 'utf8'))
      assert.deepEqual(fake.violations, [])

      const again = await cli(['baseline', 'support_bot', '--repo', 'acme/support-bot'], env, here)
      assert.match(again.stdout, /, already here$/m)
    })

    test('says what is missing: a token, the repository, a run of that agent', async () => {
      const here = await mkdtemp(join(tmpdir(), 'convy-local-'))
      const noToken = await cli(['baseline', 'support_bot', '--repo', 'acme/support-bot'], { GITHUB_API_URL: fake.url }, here)
      assert.equal(noToken.code, 2)
      assert.match(noToken.stderr, /set GITHUB_TOKEN/)
      const noRepo = await cli(['baseline', 'support_bot'], { GITHUB_TOKEN: fake.token, GITHUB_API_URL: fake.url }, here)
      assert.equal(noRepo.code, 2)
      assert.match(noRepo.stderr, /--repo owner\/name/)
      const noRun = await cli(['baseline', 'other_bot', '--repo', 'acme/support-bot'], { GITHUB_TOKEN: fake.token, GITHUB_API_URL: fake.url }, here)
      assert.equal(noRun.code, 2)
      assert.match(noRun.stderr, /no successful run on main of acme\/support-bot uploaded convy-other_bot/)
    })
  })

  describe('convy-ci baseline --history', () => {
    test('keeps the last runs’ summaries beside the baseline; report and compare draw the trend from them', async () => {
      const here = await mkdtemp(join(tmpdir(), 'convy-local-'))
      const env = { GITHUB_TOKEN: fake.token, GITHUB_API_URL: fake.url }
      const result = await cli(['baseline', 'support_bot', '--repo', 'acme/support-bot', '--history', '10'], env, here)
      assert.equal(result.code, 0, result.stderr)
      assert.match(result.stdout, /^ {2}history: 4 of the last 5 successful run\(s\) on main$/m)
      assert.match(result.stderr, /^warning: support_bot: trend: workflow run \d+: its convy-support_bot\+summary was left out: it is not JSON$/m)
      const { history, problems } = await readHistory(join(here, 'results', 'support_bot', 'history.json'))
      assert.deepEqual(problems, [])
      assert.deepEqual(
        history!.entries.map((e) => e.summary.scenarios.find((s) => s.id === 'off-topic')?.passed),
        [5, 4, 3, 5],
        'newest first: the action’s push, then the made-up runs',
      )

      assert.equal((await cli(['report'], env, here)).code, 0)
      const report = await readFile(join(runDir(join(here, 'results'), uploaded), 'report.html'), 'utf8')
      assert.match(report, /aria-label="Pass rate on main over the last 3 runs, oldest first: 100%, 60%, 80%; this run: 100% \(5\/5\)"/)

      const compared = await cli(['compare', uploaded.slice(-4), uploaded.slice(-4), '--markdown'], env, here)
      assert.equal(compared.code, 0, compared.stderr)
      const [page] = await readdir(join(here, 'results', 'compare'))
      assert.match(await readFile(join(here, 'results', 'compare', page!), 'utf8'), /<svg class="spark"[^>]*aria-label="Pass rate on main over the last 3 runs/)

      const without = await cli(['baseline', 'support_bot', '--repo', 'acme/support-bot', '--history', 'lots'], env, here)
      assert.equal(without.code, 2)
      assert.match(without.stderr, /--history lots: expected a number of runs from 0 to 50/)
      assert.deepEqual(fake.violations, [])
    })
  })

  test('the action with history: 0 reads no summary and draws no trend', () => {
    assert.equal(pushCalls.filter((c) => c.path.includes('convy-support_bot%2Bsummary') || /\/summary/.test(c.path)).length, 0)
    assert.doesNotMatch(pushed.stdout, /trend/)
  })
})
