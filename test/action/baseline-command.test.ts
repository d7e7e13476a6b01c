import assert from 'node:assert/strict'
import { mkdtemp, readFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, test } from 'node:test'
import { runDir } from '../../src/records/journal/run-folder.ts'
import { startFakeGitHub, type FakeGitHub } from '../fakes/github-server.ts'
import { pushEvent } from './events.ts'
import { describeStep, exampleWorkspace, runActionStep, runBundledCli } from './harness.ts'

// `convy-ci baseline` (the bundled CLI) downloads what the action uploaded on the default branch.

const cli = runBundledCli

describe('convy-ci baseline', () => {
  let fake: FakeGitHub
  let uploaded: { id: string; dir: string }
  before(async () => {
    fake = await startFakeGitHub()
    const workspace = await exampleWorkspace()
    const run = fake.world.startRun({ event: 'push', headBranch: 'main', headSha: 'a'.repeat(40) })
    const result = await runActionStep(fake, { run, eventName: 'push', payload: pushEvent(fake.world, run.headSha), inputs: { agent: 'support_bot', scenarios: 'off-topic' }, workspace })
    assert.equal(result.code, 0, describeStep(result))
    fake.world.finishRun(run.id, 'success')
    uploaded = { id: result.outputs['run-id']!, dir: runDir(join(workspace, 'results'), result.outputs['run-id']!) }
  })
  after(async () => {
    await fake.close()
  })

  test('downloads the default branch’s latest run into results/, as the run it was', async () => {
    const here = await mkdtemp(join(tmpdir(), 'convy-local-'))
    const env = { GITHUB_TOKEN: fake.token, GITHUB_API_URL: fake.url }
    const result = await cli(['baseline', 'support_bot', '--repo', 'acme/support-bot'], env, here)
    assert.equal(result.code, 0, result.stderr)
    assert.match(result.stdout, new RegExp(`^support_bot: baseline ${uploaded.id} \\(workflow run \\d+ on main, commit aaaaaaa\\)$`, 'm'))
    assert.match(result.stdout, new RegExp(`compare with: convy-ci compare ${uploaded.id.slice(-4)} <your run>`))
    const local = runDir(join(here, 'results'), uploaded.id)
    for (const file of ['run.json', 'attempts.jsonl']) assert.equal(await readFile(join(local, file), 'utf8'), await readFile(join(uploaded.dir, file), 'utf8'))
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
