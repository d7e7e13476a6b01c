import type { ActionDeps } from './deps.ts'
import { workflowOfRun } from './fetch-baseline.ts'
import type { Publication } from './publish-agent.ts'

/**
 * For a run made in this workflow run (mode run or merge): a pull request is compared with the
 * newest good run of this same workflow on the default branch (or baseline-branch) and published on;
 * anything else only runs and uploads, unless a baseline run was named.
 */
export async function planPublication(deps: ActionDeps): Promise<Publication> {
  const { inputs, github } = deps
  const pr = github.pullRequest
  const target = pr ? { number: pr.number, headSha: pr.headSha, readOnlyReason: github.readOnlyReason } : null
  if (inputs.baseline.kind === 'none') return { baseline: { none: pr ? 'the workflow sets baseline: none' : null }, target }
  if (inputs.baseline.kind === 'auto' && !pr) return { baseline: { none: null }, target }
  return {
    baseline: {
      runId: inputs.baseline.kind === 'run' ? inputs.baseline.runId : null,
      workflow: inputs.baseline.kind === 'run' ? null : await workflowOfRun(deps, github.runId),
      branch: inputs.baselineBranch,
      excludeRunId: github.runId,
    },
    target,
  }
}
