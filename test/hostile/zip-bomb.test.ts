import assert from 'node:assert/strict'
import { mkdtemp, readdir, stat } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, test } from 'node:test'
import { startFakeGitHub, type FakeGitHub } from '../fakes/github-server.ts'
import { zipOf } from '../fakes/zip.ts'
import { workflowRunEvent } from '../action/events.ts'
import { describeStep, exampleWorkspace, runActionStep } from '../action/harness.ts'
import { expectExit, sha } from '../action/steps.ts'

// Issue 23: the publish mode runs with a write token on what a fork's pull request uploaded. Before,
// the toolkit unpacked it without limits: a 1.05 MB artifact wrote 1 GiB into RUNNER_TEMP and left it.
let fake: FakeGitHub
let workspace: string
before(async () => {
  fake = await startFakeGitHub()
  // No baseline is pushed first: publish mode unpacks the artifact before it looks for one (and this
  // artifact's run.json could not be read even if it were unpacked), so it would change nothing here.
  workspace = await exampleWorkspace()
})
after(() => fake.close())

/** Bytes in files under dir, now. */
async function bytesUnder(dir: string): Promise<{ files: string[]; bytes: number }> {
  const files: string[] = []
  let bytes = 0
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => [])) {
    if (!entry.isFile()) continue
    const path = join(entry.parentPath, entry.name)
    files.push(path)
    bytes += await stat(path).then((s) => s.size, () => 0)
  }
  return { files, bytes }
}

test('a fork pull request’s zip bomb, fed to the publish mode: refused before it is written, nothing left behind', async (t) => {
  const forkRun = fake.world.startRun({ event: 'pull_request', headBranch: 'main', headSha: sha('b'), headRepository: 'mallory/support-bot' })
  fake.world.pulls.set(21, { number: 21, headSha: forkRun.headSha, headRef: 'main', headRepository: 'mallory/support-bot', baseRef: 'main' })
  // What a run folder looks like, plus 256 MiB of zeros that deflate to a quarter of a megabyte.
  const bomb = zipOf([
    { name: 'run.json', data: Buffer.from('{"id":"support_bot/2026-12-01T00-00-00_b0mb"}') },
    { name: 'attempts.jsonl', data: Buffer.alloc(2 ** 20), repeat: 256, deflate: 'runs' },
  ])
  assert.ok(bomb.length < 2 ** 20, `the bomb is ${bomb.length} bytes`)
  fake.world.addArtifact(forkRun.id, 'convy-support_bot', bomb)
  fake.world.finishRun(forkRun.id, 'success')

  const runnerTemp = await mkdtemp(join(tmpdir(), 'convy-runner-temp-'))
  const run = fake.world.startRun({ event: 'workflow_run', headBranch: 'main', headSha: sha('a') })
  const writesBefore = fake.restWrites().length
  // Watched while the step runs: the largest amount ever on disk there.
  let most = 0
  let watching = true
  const watcher = (async () => {
    while (watching) {
      most = Math.max(most, (await bytesUnder(runnerTemp)).bytes)
      await new Promise((resolve) => setTimeout(resolve, 5))
    }
  })()
  const result = await runActionStep(fake, {
    run,
    eventName: 'workflow_run',
    payload: workflowRunEvent(fake.world, forkRun, [21]),
    inputs: { mode: 'publish', agent: 'support_bot', comment: 'always' },
    workspace,
    env: { RUNNER_TEMP: runnerTemp },
  })
  watching = false
  await watcher

  t.diagnostic(`the bomb: ${bomb.length} bytes; at most ${most} bytes under RUNNER_TEMP at once`)
  expectExit(result, 1)
  assert.ok(
    result.annotations.some((a) => a.level === 'error' && /was not unpacked: attempts\.jsonl inflates \d+ times \(268435456 bytes from \d+\); refused as a zip bomb/.test(a.message)),
    describeStep(result),
  )
  assert.equal(fake.restWrites().length, writesBefore, 'no comment, no check')
  // The zip itself (under a megabyte) is the most that was ever there; nothing of it is left.
  assert.ok(most < 2 ** 20, `${most} bytes were on disk at once`)
  assert.deepEqual((await bytesUnder(runnerTemp)).files, [])
})
