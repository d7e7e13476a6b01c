import { mkdir, rm } from 'node:fs/promises'
import { join } from 'node:path'
import { readTally } from '../../../records/tally/read-tally.ts'
import type { RunTally } from '../../../records/tally/run-tally.ts'
import { downloadArtifact } from '../../../adapters/github/artifacts.ts'
import { findRunArtifact } from '../../../adapters/github/baseline.ts'
import { artifactUrl, type TriggeringRun } from '../../../adapters/github/event.ts'
import type { Octokit } from '../../../adapters/github/octokit.ts'
import { ConvyError, InputError } from '../../../base/shared/errors.ts'
import { reportFileName, runArtifactName } from '../../../adapters/github/artifact-names.ts'
import type { ActionDeps } from '../deps.ts'
import { publishAgent, type AgentOutcome, type Publication } from '../publish-agent.ts'
import { readAgentHistory } from '../history.ts'

/**
 * mode: publish — the second half of the two-workflow pattern for pull requests from forks. It runs
 * on workflow_run, with a token that can write, and never runs the pull request's code: it downloads
 * the finished run's artifact, treats it as untrusted data (checked against the API: the pull request
 * and its head commit), compares it with the baseline and posts the comment and the check.
 */
export async function publishMode(deps: ActionDeps): Promise<AgentOutcome[]> {
  const { github, inputs, log, octokit, token } = deps
  const trigger = github.triggeringRun
  if (github.eventName !== 'workflow_run' || !trigger) throw new InputError(`mode: publish runs in a workflow triggered by workflow_run, not ${github.eventName} (docs/action.md: "Pull requests from forks")`)
  if (!octokit || !token) throw new InputError('mode: publish needs a github-token that can read actions and write pull requests and checks')
  if (trigger.event !== 'pull_request') {
    log.notice(`nothing to publish: workflow run ${trigger.id} ran for ${trigger.event}, not for a pull request`)
    return []
  }
  const { owner, repo } = github.repository
  const outcomes: AgentOutcome[] = []
  for (const agent of inputs.agents) {
    const name = runArtifactName(inputs.artifactName, agent)
    const artifact = await findRunArtifact(octokit, { owner, repo, runId: trigger.id, name })
    if (artifact === null || artifact === 'expired') {
      log.warning(`${agent}: workflow run ${trigger.id} has no ${artifact ? 'unexpired ' : ''}artifact ${name}; nothing to publish (did its convy step run?)`)
      continue
    }
    const dir = join(deps.tempDir, 'pull-request', agent)
    await rm(dir, { recursive: true, force: true })
    await mkdir(dir, { recursive: true })
    await downloadArtifact(deps.artifacts, artifact.artifactId, dir, { token, owner, repo, runId: trigger.id }, artifact.digest)
    // Data this job did not write: masked as it is read, before anything quotes or cuts it; and
    // removed once read, whatever happens, so nothing a pull request put here outlives the step.
    const tally = await readTally(dir, { mask: deps.mask }).finally(() => rm(dir, { recursive: true, force: true }))
    const number = await checkedPullRequest(octokit, { owner, repo }, trigger, agent, tally)
    if (number === null) {
      log.notice(`${agent}: the pull request has moved past ${trigger.headSha.slice(0, 7)}; its newer run will publish`)
      continue
    }
    const report = await findRunArtifact(octokit, { owner, repo, runId: trigger.id, name: reportFileName(inputs.artifactName, agent) })
    const reportUrl = report && report !== 'expired' ? artifactUrl(github, trigger.id, report.artifactId) : null
    const publication: Publication = {
      baseline:
        inputs.baseline.kind === 'none'
          ? { none: 'the workflow sets baseline: none' }
          : {
              runId: inputs.baseline.kind === 'run' ? inputs.baseline.runId : null,
              workflow: trigger.workflowId,
              branch: inputs.baselineBranch,
              excludeRunId: trigger.id,
            },
      // A run a fork's workflow made says what that workflow wrote: never a green check on its word (issue 38).
      target: { number, headSha: trigger.headSha, readOnlyReason: null, unverified: trigger.headRepository !== `${owner}/${repo}` ? `produced by a fork's workflow (${trigger.headRepository ?? 'an unknown repository'})` : null },
    }
    const history = await readAgentHistory(deps, agent, { workflow: trigger.workflowId, branch: inputs.baselineBranch, excludeRunId: trigger.id })
    const outcome = await publishAgent(deps, { agent, tally, reportUrl, history }, publication)
    // The check on the pull request carries the verdict; this workflow is not attached to it.
    if (outcome.failure) log.info(`${outcome.failure}; the check run says so on the pull request`)
    outcomes.push({ ...outcome, failure: null })
  }
  return outcomes
}

/**
 * The pull request an artifact may be published on, or null when its head has moved on. The artifact
 * came from code anyone could have written, so its claims are checked against what GitHub says.
 */
async function checkedPullRequest(octokit: Octokit, where: { owner: string; repo: string }, trigger: TriggeringRun, agent: string, tally: RunTally): Promise<number | null> {
  const refuse = (why: string) => new ConvyError(`refusing to publish ${agent} from workflow run ${trigger.id}: ${why}`)
  const { manifest } = tally
  if (manifest.agent.name !== agent) throw refuse(`its artifact holds a run of ${manifest.agent.name}`)
  if (manifest.ci?.commit !== trigger.headSha) throw refuse(`its run is of commit ${manifest.ci?.commit ?? 'unknown'}, but the workflow run was of ${trigger.headSha}`)
  const number = trigger.pullRequests[0] ?? manifest.ci.pullRequest
  if (number === null) throw refuse('it names no pull request')
  const { data: pr } = await octokit.rest.pulls.get({ ...where, pull_number: number })
  if (pr.base.repo.full_name !== `${where.owner}/${where.repo}`) throw refuse(`pull request #${number} is not into this repository`)
  if (pr.head.repo?.full_name !== trigger.headRepository) throw refuse(`pull request #${number} comes from ${pr.head.repo?.full_name ?? 'a deleted repository'}, but the workflow run from ${trigger.headRepository ?? 'an unknown repository'}`)
  return pr.head.sha === trigger.headSha ? number : null
}
