import type { ArtifactClient } from '@actions/artifact'
import type { PipelineContext } from '../../app/pipeline/context.ts'
import type { PublishLog } from '../../app/publish/deps.ts'
import type { ActionsCache } from '../../adapters/github/actions-cache.ts'
import type { GitHubRun } from '../../adapters/github/event.ts'
import type { Octokit } from '../../adapters/github/octokit.ts'
import type { Mask } from '../../base/shared/secrets.ts'
import type { ActionInputs } from './inputs.ts'

/**
 * Everything the action's flow needs from the outside, passed in: main.ts wires the toolkit and the
 * process; the flow itself never reads the environment.
 */
export interface ActionDeps {
  inputs: ActionInputs
  github: GitHubRun
  /** The REST client, or null when no github-token was given: nothing is read or written then. */
  octokit: Octokit | null
  /** The token the REST client uses; also what downloads from other workflow runs use. */
  token: string | null
  artifacts: ArtifactClient
  /** The Actions cache: the model cache between runs, and the baseline where artifacts cannot be read. */
  cache: ActionsCache
  /** What the pipeline runs with: cwd is the working directory; its signal is aborted on cancel. */
  context: PipelineContext
  /** The job log: notices and warnings are annotations on the workflow run. */
  log: PublishLog
  /** A folder of this job's own for downloads and copies. */
  tempDir: string
  /**
   * The project's secrets and the token, masked in everything the action sends or writes; main.ts
   * applies it at the sinks, this flow before a text is cut to GitHub's limits.
   */
  mask: Mask
}
