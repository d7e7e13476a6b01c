import { mkdir, rm } from 'node:fs/promises'
import { join } from 'node:path'
import { mergeShards } from '../../../app/pipeline/merge-shards.ts'
import { resultsDirOf } from '../../../app/pipeline/project.ts'
import { downloadArtifact } from '../../../adapters/github/artifacts.ts'
import { InputError } from '../../../base/shared/errors.ts'
import { readTally } from '../../../records/tally/read-tally.ts'
import { shardOf } from '../../../adapters/github/artifact-names.ts'
import { saveBaselineToCache } from '../baseline-cache.ts'
import type { ActionDeps } from '../deps.ts'
import { planPublication } from '../plan-publication.ts'
import { publishAgent, type AgentOutcome } from '../publish-agent.ts'
import { baseBranchRules, withRules } from '../base-rules.ts'
import { uploadRun } from '../upload-run.ts'
import { workflowOfRun } from '../fetch-baseline.ts'
import { readHistories } from '../history.ts'
import { uploadSummary } from '../upload-summary.ts'
import { recordedBaseline } from '../adaptive-baseline.ts'

/**
 * mode: merge — in a job that needs the matrix: download this workflow run's shard artifacts of each
 * agent, merge them into one run (exactly the unsharded run's attempts), upload it as the agent's run,
 * then compare and publish once, as mode run does.
 */
export async function mergeMode(deps: ActionDeps): Promise<AgentOutcome[]> {
  const { inputs, log } = deps
  const { artifacts } = await deps.artifacts.listArtifacts({ latest: true })
  const resultsDir = resultsDirOf(deps.context, { config: inputs.config })
  // The base branch's rules decide the gate of a pull request (issue 38), as in mode: run.
  const rules = await baseBranchRules(deps)
  if (rules && rules.differences.length > 0) deps.log.warning(`the gate uses the base branch's rules where they are stricter: ${rules.differences.join('; ')}`)
  const gating = rules ? { ...deps, inputs: withRules(deps.inputs, rules.rules) } : deps
  const publication = await planPublication(gating)
  // Read before the merge writes each report, so it shows the default branch's trend.
  const histories =
    inputs.history === 0
      ? new Map()
      : await readHistories(deps, inputs.agents, resultsDir, { workflow: await workflowOfRun(deps, deps.github.runId), branch: inputs.baselineBranch, excludeRunId: deps.github.runId })
  const outcomes: AgentOutcome[] = []
  for (const agent of inputs.agents) {
    const shards = artifacts.filter((a) => shardOf(inputs.artifactName, agent, a.name))
    if (shards.length === 0) {
      throw new InputError(`merge: this workflow run has no shard artifacts of ${agent} (${inputs.artifactName}-${agent}-shard-I-of-N); do the shard jobs use shard: I/N with the same artifact-name, and does this job need them?`)
    }
    const dirs: string[] = []
    for (const shard of shards.sort((a, b) => a.name.localeCompare(b.name))) {
      const dir = join(deps.tempDir, 'shards', shard.name)
      await rm(dir, { recursive: true, force: true })
      await mkdir(dir, { recursive: true })
      await downloadArtifact(deps.artifacts, shard.id, dir, null)
      dirs.push(dir)
    }
    const merged = await mergeShards(dirs, resultsDir, deps.context.writer(`convy-ci action (mode merge) ${agent}`), (message) => log.warning(`${agent}: ${message}`))
    log.info(`${agent}: merged ${shards.length} shards into run ${merged.id}`)
    const { reportUrl } = await uploadRun(deps, agent, merged.dir, null)
    // The merge counted the run as it wrote the report; only when that failed is the folder read again.
    const tally = merged.tally ?? (await readTally(merged.dir))
    await uploadSummary(deps, agent, tally)
    // Adaptive shards decided their rounds against one baseline: the comparison is with that run.
    const fetched = await recordedBaseline(gating, agent, publication, tally)
    const outcome = await publishAgent(gating, { agent, tally, reportUrl, dir: merged.dir, history: histories.get(agent) ?? null }, publication, rules, fetched)
    if (!outcome.failure) await saveBaselineToCache(deps, agent, merged.dir)
    outcomes.push(outcome)
  }
  return outcomes
}
