import assert from 'node:assert/strict'
import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { DEFAULT_ARTIFACT_NAME, runArtifactName, summaryArtifactName } from '../../src/adapters/github/artifact-names.ts'
import { runDir } from '../../src/records/journal/run-folder.ts'
import { readTally } from '../../src/records/tally/read-tally.ts'
import { SUMMARY_FILE, summarizeRun, summaryJson } from '../../src/records/tally/run-summary.ts'
import type { FakeGitHub } from '../fakes/github-server.ts'
import type { FakeRun } from '../fakes/github-world.ts'
import { zipOf } from '../fakes/zip.ts'
import { runBundledCli } from './harness.ts'
import { sha } from './steps.ts'

/**
 * A successful push of the default branch whose artifacts hold a run the product made: `convy-ci run`
 * of the bundled CLI (dist/cli.js, a child process: ~0.9 CPU-s, where the same run in this process
 * costs ~1.5 and the action's step ~1.6) on the workspace, its run folder zipped and its summary (the
 * product's summarizeRun) beside it, uploaded through the fake world under the names the action
 * uses. A baseline for a pull request's step without starting the bundle for the push: that the
 * bundle's own push uploads these artifacts and a pull request finds them is proven in
 * pull-requests.test.ts and history.test.ts.
 *
 * `inputs` are the action inputs the push would have had: agent, attempts, scenarios, parallel,
 * cache and artifact-name, played as the CLI's flags (any other input is refused, not dropped).
 */
export async function seedBaseline(
  fake: FakeGitHub,
  workspace: string,
  inputs: Record<string, string>,
  /** exits: the CLI's exit codes that still make a run to seed (1: some attempts ended without a verdict). */
  options: { env?: Record<string, string>; headSha?: string; exits?: number[] } = {},
): Promise<{ runId: string; run: FakeRun }> {
  // A seeded baseline is the push's run: baseline-attempts, when given, are its attempts.
  // adaptive and max-attempts are a pull request's: a push plays fixed attempts.
  const { agent, attempts: prAttempts, 'baseline-attempts': baselineAttempts, scenarios, parallel, cache, 'artifact-name': artifactName = DEFAULT_ARTIFACT_NAME, adaptive: _adaptive, 'max-attempts': _max, ...rest } = inputs
  const attempts = baselineAttempts ?? prAttempts
  assert.deepEqual(Object.keys(rest), [], 'inputs a seeded baseline cannot play')
  assert.ok(agent && attempts, 'a seeded baseline needs the agent and its attempts')
  const args = ['run', agent, '-k', attempts]
  for (const id of scenarios?.split(',') ?? []) args.push('--scenarios', id)
  if (parallel) args.push('--parallel', parallel)
  if (cache) args.push('--cache', cache)
  const played = await runBundledCli(args, options.env ?? {}, workspace)
  assert.ok((options.exits ?? [0]).includes(played.code), `exit ${played.code}\n${played.stdout}${played.stderr}`)
  const runId = /^run (\S+)$/m.exec(played.stdout)?.[1]
  assert.ok(runId, played.stdout)

  const dir = runDir(join(workspace, 'results'), runId)
  const files = (await readdir(dir, { withFileTypes: true })).filter((e) => e.isFile()).map((e) => e.name)
  const folder = zipOf(await Promise.all(files.map(async (name) => ({ name, data: await readFile(join(dir, name)), deflate: true }))))
  const summary = zipOf([{ name: SUMMARY_FILE, data: Buffer.from(summaryJson(summarizeRun(await readTally(dir)))), deflate: true }])

  const run = fake.world.startRun({ event: 'push', headBranch: fake.world.defaultBranch, headSha: options.headSha ?? sha('a') })
  fake.world.addArtifact(run.id, runArtifactName(artifactName, agent), folder)
  fake.world.addArtifact(run.id, summaryArtifactName(artifactName, agent), summary)
  fake.world.finishRun(run.id, 'success')
  return { runId, run }
}
