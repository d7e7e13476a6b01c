// The action's entry point (dist/action.js): wires the toolkit and the process to the flow, and is
// the only place that decides the step's outcome.
import { DefaultArtifactClient } from '@actions/artifact'
import * as actionsCacheToolkit from '@actions/cache'
import * as core from '@actions/core'
import { randomBytes } from 'node:crypto'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { writerFor } from '../../records/journal/writer.ts'
import type { PipelineContext } from '../../app/pipeline/context.ts'
import { actionsCache } from '../../adapters/github/actions-cache.ts'
import { readGitHubRun } from '../../adapters/github/event.ts'
import { createOctokit } from '../../adapters/github/octokit.ts'
import { errorMessage, InputErrors, Interrupted, toConvyError } from '../../base/shared/errors.ts'
import { readInputs } from './inputs.ts'
import { runAction } from './run-action.ts'
import { terminalPrinters } from '../printers/index.ts'

async function main(): Promise<void> {
  // The runner cancels a job with SIGINT, then SIGTERM; finished attempts stay recorded either way.
  const controller = new AbortController()
  const stop = (signal: NodeJS.Signals) => controller.abort(new Interrupted(`cancelled (${signal})`))
  process.once('SIGINT', stop)
  process.once('SIGTERM', stop)

  const inputs = readInputs((name) => core.getInput(name))
  const github = readGitHubRun(process.env)
  if (inputs.githubToken) core.setSecret(inputs.githubToken)
  const features = process.features as { typescript?: string | false }
  const context: PipelineContext = {
    cwd: resolve(process.env.GITHUB_WORKSPACE ?? process.cwd(), inputs.workingDirectory),
    env: process.env,
    stdout: process.stdout,
    stderr: process.stderr,
    interactive: false,
    signal: controller.signal,
    canStripTypes: features.typescript === 'strip' || features.typescript === 'transform',
    printers: terminalPrinters,
    now: () => new Date(),
    writer: (command) => writerFor(process, command),
  }
  const result = await runAction({
    inputs,
    github,
    octokit: inputs.githubToken ? createOctokit(inputs.githubToken, github.apiUrl) : null,
    token: inputs.githubToken,
    artifacts: new DefaultArtifactClient(),
    // The toolkit names cached folders relative to its working directory, the workspace.
    cache: actionsCache(actionsCacheToolkit, process.cwd()),
    context,
    log: { info: core.info, notice: core.notice, warning: core.warning },
    tempDir: join(process.env.RUNNER_TEMP ?? tmpdir(), `convy-${randomBytes(4).toString('hex')}`),
  })
  for (const [name, value] of Object.entries(result.outputs)) core.setOutput(name, value)
  if (result.summary) {
    try {
      await core.summary.addRaw(result.summary, true).write()
    } catch (error) {
      core.warning(`the job summary was not written: ${errorMessage(error)}`)
    }
  }
  if (result.failures.length) core.setFailed(result.failures.join('\n'))
}

main().catch((error: unknown) => {
  const convyError = toConvyError(error)
  core.setFailed(convyError instanceof InputErrors ? convyError.problems.map((p) => p.message).join('\n') : convyError.message)
  if (process.env.CONVY_DEBUG && error instanceof Error) core.info(error.stack ?? '')
})
