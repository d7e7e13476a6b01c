import assert from 'node:assert/strict'
import { readFile, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { before, describe, test } from 'node:test'
import { runDir } from '../../src/records/journal/run-folder.ts'
import type { FakeGitHub } from '../fakes/github-server.ts'
import { fakeGitHubForSuite } from '../fakes/github-suite.ts'
import { describeStep, exampleWorkspace, runActionStep } from './harness.ts'
import { seedBaseline } from './seeded-baseline.ts'
import { EXAMPLE_INPUTS as INPUTS, expectExit, pullRequestStep, sha } from './steps.ts'

// The bundled action against a fake GitHub: a pull request that removes a scenario cannot pass the
// gate; one that retires it on purpose, visibly, can. Both are said in the comment's first lines.

describe('the action: a scenario removed or retired by the pull request', () => {
  let fake: FakeGitHub
  let workspace: string

  fakeGitHubForSuite(() => fake, (started) => (fake = started))
  before(async () => {
    workspace = await exampleWorkspace()
    // The baseline: a run of main the bundled CLI made (the action's own push is in pull-requests.test.ts).
    await seedBaseline(fake, workspace, INPUTS)
  })

  const inputs = { ...INPUTS, scenarios: 'off-topic,password-reset,unknown-order' }
  const comment = (pr: number) => fake.world.commentsOn(pr).at(-1)?.body ?? ''

  test('removed without a retired: entry: evidence missing, a failing check, verdict inconclusive', async () => {
    const original = await readFile(join(workspace, 'scenarios', 'order-status.yml'), 'utf8')
    await rm(join(workspace, 'scenarios', 'order-status.yml'))
    const run = fake.world.startRun({ event: 'pull_request', headBranch: 'drop-order-status', headSha: sha('c') })
    fake.world.pulls.set(21, { number: 21, headSha: run.headSha, headRef: 'drop-order-status', headRepository: fake.world.fullName, baseRef: 'main' })
    const result = await runActionStep(fake, pullRequestStep(fake, workspace, { number: 21, run, inputs }))
    await writeFile(join(workspace, 'scenarios', 'order-status.yml'), original)
    expectExit(result, 1)
    assert.equal(result.outputs.verdict, 'inconclusive')
    assert.equal(result.outputs.inconclusive, 'evidence-missing')
    const [check] = fake.world.checkRuns.filter((c) => c.headSha === run.headSha)
    assert.equal(check?.conclusion, 'failure')
    assert.match(check?.title ?? '', /^Inconclusive, evidence missing · Worse counting what this run lacks · 1 scenario removed: pass rate/)
    const lines = comment(21).split('\n')
    assert.match(lines[2]!, /^### 🟧 Inconclusive, evidence missing/)
    assert.ok(lines.slice(0, 10).includes('- **removed** order-status (baseline 5/5): gone without a `retired:` entry, so the gate does not pass'), comment(21))
    assert.ok(result.annotations.some((a) => a.level === 'error' && /inconclusive/.test(a.message)), describeStep(result))
  })

  test('retired with a reason: not played, listed in run.json, said in the comment, and the gate passes', async () => {
    const file = join(workspace, 'scenarios', 'order-status.yml')
    const original = await readFile(file, 'utf8')
    await writeFile(file, `retired: order status moved to the tracking agent\n${original}`)
    const run = fake.world.startRun({ event: 'pull_request', headBranch: 'retire-order-status', headSha: sha('d') })
    fake.world.pulls.set(22, { number: 22, headSha: run.headSha, headRef: 'retire-order-status', headRepository: fake.world.fullName, baseRef: 'main' })
    const result = await runActionStep(fake, pullRequestStep(fake, workspace, { number: 22, run, inputs }, {}))
    await writeFile(file, original)
    expectExit(result, 0)
    assert.equal(result.outputs.verdict, 'within-noise')
    const manifest = JSON.parse(await readFile(join(runDir(join(workspace, 'results'), result.outputs['run-id']!), 'run.json'), 'utf8')) as { retired?: unknown; scenarios: { id: string }[] }
    assert.deepEqual(manifest.retired, [{ id: 'order-status', reason: 'order status moved to the tracking agent' }])
    assert.ok(!manifest.scenarios.some((s) => s.id === 'order-status'), 'a retired scenario is not played')
    assert.ok(comment(22).split('\n').slice(0, 10).includes('- **retired** order-status (baseline 5/5): order status moved to the tracking agent'), comment(22))
  })
})
