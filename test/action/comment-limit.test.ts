import assert from 'node:assert/strict'
import { mkdir, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, test } from 'node:test'
import { compareRuns } from '../../src/verdict/compare-runs.ts'
import { readTally } from '../../src/records/tally/read-tally.ts'
import { comparisonMarkdown } from '../../src/views/markdown/compare-markdown.ts'
import { runDir } from '../../src/records/journal/run-folder.ts'
import { ACTION_DEFAULT_ATTEMPTS } from '../../src/entry/action/inputs.ts'
import type { FakeGitHub } from '../fakes/github-server.ts'
import { fakeGitHubForSuite } from '../fakes/github-suite.ts'
import { exampleWorkspace, runActionStep } from './harness.ts'
import { seedBaseline } from './seeded-baseline.ts'
import { expectExit, pullRequestStep, sha } from './steps.ts'

// More to say than a comment holds: GitHub refuses comments over 65,536 characters (the fake does
// too) and check summaries over 65,535 (the OpenAPI description says so).

describe('the action with more to say than a comment holds', () => {
  let fake: FakeGitHub
  fakeGitHubForSuite(() => fake, (started) => (fake = started))

  test('a comparison longer than a comment can hold is cut to fit, with the report linked; the check and the job summary fit too', async () => {
    const workspace = await manyScenarios(1200)
    const inputs = { agent: 'echo', 'artifact-name': 'big', comment: 'always', adaptive: 'false' }
    // main's run, made by the bundled CLI (the action's own push is in pull-requests.test.ts).
    const baseline = await seedBaseline(fake, workspace, { agent: inputs.agent, 'artifact-name': inputs['artifact-name'], attempts: String(ACTION_DEFAULT_ATTEMPTS) })

    const run = fake.world.startRun({ event: 'pull_request', headBranch: 'topic-31', headSha: sha('d') })
    const result = await runActionStep(fake, pullRequestStep(fake, workspace, { number: 31, run, inputs }))
    expectExit(result, 0)

    const resultsDir = join(workspace, 'results')
    const [before, after] = await Promise.all([readTally(runDir(resultsDir, baseline.runId)), readTally(runDir(resultsDir, result.outputs['run-id']!))])
    const uncut = comparisonMarkdown(compareRuns(before, after, { now: new Date() }), { maxLength: Number.MAX_SAFE_INTEGER })
    assert.ok(uncut.length > 65_536, `the whole comparison is ${uncut.length} characters`)

    const [comment] = fake.world.commentsOn(31)
    assert.ok(comment && comment.body.length <= 65_536)
    assert.match(comment.body, /…and [\d,]+ more scenarios, listed in the \[full report\]\(https:\/\/github\.com\/acme\/support-bot\/actions\/runs\/\d+\/artifacts\/\d+\)\./)
    const check = fake.world.checkRuns.find((c) => c.headSha === run.headSha)
    assert.ok(check?.summary && check.summary.length <= 65_535)
    assert.ok(Buffer.byteLength(result.summary) <= 1024 * 1024)
    assert.equal(result.summary.trim(), comment.body.trim())
  })
})


/** A project of n scripted scenarios with long names, against the built-in echo agent. */
async function manyScenarios(n: number): Promise<string> {
  const workspace = await exampleWorkspace()
  await writeFile(join(workspace, 'convy.yml'), 'agents: {}\n')
  // The example's scenarios go (some need its bot, its set-up and its tool sets); only these are played.
  const dir = join(workspace, 'scenarios')
  await rm(dir, { recursive: true })
  await mkdir(dir, { recursive: true })
  await Promise.all(
    Array.from({ length: n }, (_, i) =>
      writeFile(join(dir, `s${String(i).padStart(4, '0')}.yml`), `id: customer-asks-about-something-rather-specific-${String(i).padStart(4, '0')}\nscript: [hello]\nchecks:\n  - contains: hello\n`),
    ),
  )
  return workspace
}
