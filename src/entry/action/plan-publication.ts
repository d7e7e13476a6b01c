import type { ActionDeps } from './deps.ts'
import { workflowOfRun } from './fetch-baseline.ts'
import type { PublishTarget } from '../../app/publish/post-to-pull-request.ts'
import type { Publication } from './publish-agent.ts'

/**
 * For a run made in this workflow run (mode run or merge): a pull request is compared with the
 * newest good run of this same workflow on the default branch (or baseline-branch) and published on;
 * a merge queue's group is compared with the branch it merges into and gets the check on the commit
 * the queue tests (there is no pull request to comment on); anything else only runs and uploads,
 * unless a baseline run was named.
 */
export async function planPublication(deps: ActionDeps): Promise<Publication> {
  const { inputs, github } = deps
  const pr = github.pullRequest
  const group = github.mergeGroup
  const target: PublishTarget | null = pr
    ? { number: pr.number, headSha: pr.headSha, readOnlyReason: github.readOnlyReason }
    : group
      ? { number: null, headSha: group.headSha, readOnlyReason: null }
      : null
  if (inputs.baseline.kind === 'none') return { baseline: { none: target ? 'the workflow sets baseline: none' : null }, target }
  if (inputs.baseline.kind === 'auto' && !target) return { baseline: { none: null }, target }
  return {
    baseline: {
      runId: inputs.baseline.kind === 'run' ? inputs.baseline.runId : null,
      workflow: inputs.baseline.kind === 'run' ? null : await workflowOfRun(deps, github.runId),
      branch: inputs.baselineBranch ?? group?.baseBranch ?? null,
      excludeRunId: github.runId,
    },
    target,
  }
}
