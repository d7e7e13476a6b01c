// The action's entry point (dist/action.js): wires the toolkit and the process to the flow, and is
// the only place that decides the step's outcome.
import { rm } from 'node:fs/promises'
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
import { createMask, noMask, SHORTEST_MASKED, type Mask } from '../../base/shared/secrets.ts'
import { secretsOfProject } from '../../app/pipeline/project.ts'
import type { Output } from '../../app/pipeline/context.ts'
import { readInputs } from './inputs.ts'
import { runAction } from './run-action.ts'
import { terminalPrinters } from '../printers/index.ts'

/**
 * The last step of everything the action writes: its log lines and annotations, its outputs, the job
 * summary and why it failed (the comment and the check are masked as they are sent, in the REST
 * client). Set as soon as the secrets are known; until then only the token is.
 */
let outbound: Mask = noMask

async function main(): Promise<void> {
  // The runner cancels a job with SIGINT, then SIGTERM; finished attempts stay recorded either way.
  const controller = new AbortController()
  const stop = (signal: NodeJS.Signals) => controller.abort(new Interrupted(`cancelled (${signal})`))
  process.once('SIGINT', stop)
  process.once('SIGTERM', stop)

  const token = core.getInput('github-token')
  outbound = createMask([token])
  const inputs = readInputs((name) => core.getInput(name))
  const github = readGitHubRun(process.env)
  const cwd = resolve(process.env.GITHUB_WORKSPACE ?? process.cwd(), inputs.workingDirectory)
  // Registered with the runner too, which then hides them in the whole job's log (the toolkit's own
  // lines included). The runner matches a line at a time, so each line of a value of several lines (a
  // PEM key) is registered too. Shorter values are not, as the mask leaves them (secrets.ts).
  const project = await secretsOfProject({ cwd, env: process.env }, { config: inputs.config })
  const values = [token, ...project.values]
  const secrets = values.flatMap((value) => [value, ...(value.includes('\n') ? value.split(/\r?\n/) : [])]).filter((value) => value.length >= SHORTEST_MASKED)
  for (const value of new Set(secrets)) core.setSecret(value)
  // convy.yml's redact: patterns too: the runner cannot be told a pattern, so the action's own lines,
  // comment, check and summary are masked here.
  outbound = createMask(secrets, project.redact)
  const mask = outbound
  const masked = (stream: NodeJS.WriteStream): Output => ({ write: (text) => void stream.write(mask(text)) })
  const features = process.features as { typescript?: string | false }
  const context: PipelineContext = {
    cwd,
    env: process.env,
    stdout: masked(process.stdout),
    stderr: masked(process.stderr),
    interactive: false,
    signal: controller.signal,
    canStripTypes: features.typescript === 'strip' || features.typescript === 'transform',
    printers: terminalPrinters,
    now: () => new Date(),
    writer: (command) => writerFor(process, command),
  }
  // Everything the step downloads or unpacks (baselines, a pull request's run in mode: publish,
  // summaries, copies of reports) goes here, and all of it is removed when the step ends, also on
  // failure: a self-hosted runner keeps RUNNER_TEMP between jobs.
  const tempDir = join(process.env.RUNNER_TEMP ?? tmpdir(), `convy-${randomBytes(4).toString('hex')}`)
  const result = await runAction({
    inputs,
    github,
    octokit: inputs.githubToken ? createOctokit(inputs.githubToken, github.apiUrl, mask) : null,
    token: inputs.githubToken,
    artifacts: new DefaultArtifactClient(),
    // The toolkit names cached folders relative to its working directory, the workspace.
    cache: actionsCache(actionsCacheToolkit, process.cwd()),
    context,
    log: { info: (message) => core.info(mask(message)), notice: (message) => core.notice(mask(message)), warning: (message) => core.warning(mask(message)) },
    mask,
    tempDir,
  }).finally(() => rm(tempDir, { recursive: true, force: true }))
  for (const [name, value] of Object.entries(result.outputs)) core.setOutput(name, mask(value))
  if (result.summary) {
    try {
      await core.summary.addRaw(mask(result.summary), true).write()
    } catch (error) {
      core.warning(mask(`the job summary was not written: ${errorMessage(error)}`))
    }
  }
  if (result.failures.length) core.setFailed(mask(result.failures.join('\n')))
}

main().catch((error: unknown) => {
  const convyError = toConvyError(error)
  core.setFailed(outbound(convyError instanceof InputErrors ? convyError.problems.map((p) => p.message).join('\n') : convyError.message))
  if (process.env.CONVY_DEBUG && error instanceof Error) core.info(outbound(error.stack ?? ''))
})
