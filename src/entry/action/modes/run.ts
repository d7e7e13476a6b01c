import { runAgents, type RunRequest } from '../../../app/pipeline/run-agents.ts'
import { seconds } from '../../../views/page/format.ts'
import type { RunSettings } from '../../../records/journal/records.ts'
import { saveBaselineToCache } from '../baseline-cache.ts'
import type { ActionDeps } from '../deps.ts'
import { restoreModelCache } from '../model-cache-sync.ts'
import { planPublication } from '../plan-publication.ts'
import { publishAgent, type AgentOutcome } from '../publish-agent.ts'
import { uploadRun } from '../upload-run.ts'
import { waitFor } from '../wait-for.ts'
import { resultsDirOf } from '../../../app/pipeline/project.ts'
import { workflowOfRun } from '../fetch-baseline.ts'
import { readHistories } from '../history.ts'
import type { History } from '../../../records/tally/trend.ts'
import { uploadSummary } from '../upload-summary.ts'
import { baseBranchRules, withRules } from '../base-rules.ts'
import { adaptiveRequest } from '../adaptive-baseline.ts'

/**
 * mode: run — wait for the agent, play the scenarios in this process (the same runner as `convy-ci
 * run`) with the model cache carried over from earlier workflow runs, upload each run, and on a pull
 * request compare it with its baseline and publish; on the baseline branch, also keep the run in the
 * Actions cache as a baseline that needs no permission to read.
 */
export async function runMode(deps: ActionDeps): Promise<AgentOutcome[]> {
  const { inputs, log } = deps
  // Read before the run, so each report shows the default branch's trend (a shard's report is
  // partial): while the agent comes up and the model cache is restored. It never rejects.
  const reading =
    inputs.shard || inputs.history === 0
      ? Promise.resolve(new Map<string, History>())
      : workflowOfRun(deps, deps.github.runId).then((workflow) =>
          readHistories(deps, inputs.agents, resultsDirOf(deps.context, { config: inputs.config }), { workflow, branch: inputs.baselineBranch, excludeRunId: deps.github.runId }),
        )
  if (inputs.waitFor) {
    log.info(`waiting up to ${inputs.waitFor.timeoutSeconds} s for ${inputs.waitFor.url}`)
    const answered = await waitFor({ ...inputs.waitFor, signal: deps.context.signal, onWaiting: (message) => log.info(message) })
    log.info(`${inputs.waitFor.url} answered (HTTP ${answered.status}) after ${seconds(answered.seconds)}`)
  }
  // A push to the branch baselines come from makes the next baseline: it plays baseline-attempts.
  const github = deps.github
  const makesBaseline = !github.pullRequest && !github.mergeGroup && github.branch !== null && github.branch === (inputs.baselineBranch ?? github.defaultBranch)
  const settings: RunSettings = {
    k: makesBaseline ? inputs.baselineAttempts : inputs.attempts,
    parallel: inputs.parallel,
    turnTimeoutSeconds: inputs.turnTimeoutSeconds,
    scenarioGlobs: inputs.scenarios,
    tags: inputs.tags,
    smoke: false,
    shard: inputs.shard,
    budgetUsd: inputs.budgetUsd,
    cache: inputs.cache,
  }
  const modelCache = await restoreModelCache(deps)
  const histories = await reading
  // A shard is one slice of a run: the merge job compares and publishes the whole.
  // The base branch's rules decide the gate of a pull request (issue 38): the stricter of each setting.
  // Read before the run, as adaptive attempts need the baseline they name before the run.
  const rules = inputs.shard ? null : await baseBranchRules(deps)
  if (rules && rules.differences.length > 0) log.warning(`the gate uses the base branch's rules where they are stricter: ${rules.differences.join('; ')}`)
  const gating = rules ? { ...deps, inputs: withRules(inputs, rules.rules) } : deps
  const publication = inputs.shard ? { baseline: { none: null }, target: null } : await planPublication(gating)
  const { adaptive, fetched } = await adaptiveRequest(gating, publication, settings.k)
  // The baseline paid once per merge (issue 39 item 2): its attempts per scenario from the branch's history.
  const attemptsByHistory: RunRequest['attemptsByHistory'] =
    makesBaseline && inputs.attemptsByHistory && !inputs.shard
      ? {
          floor: inputs.attempts,
          historyOf: async (agent) => histories.get(agent) ?? null,
          onPlan: (agent, plan) => log.info(plan ? `${agent}: ${plan.summary}` : `${agent}: no history of ${inputs.baselineBranch ?? github.defaultBranch} to plan from; every scenario plays baseline-attempts (${inputs.baselineAttempts})`),
        }
      : undefined
  const { runs } = await runAgents(deps.context, { agents: inputs.agents, settings, config: inputs.config, adaptive, attemptsByHistory })
  deps.context.signal.throwIfAborted()
  await modelCache.save()

  const outcomes: AgentOutcome[] = []
  for (const run of runs) {
    const { reportUrl } = await uploadRun(deps, run.agent, run.dir, inputs.shard)
    if (!inputs.shard) await uploadSummary(deps, run.agent, run.tally)
    const outcome = await publishAgent(gating, { agent: run.agent, tally: run.tally, reportUrl, dir: run.dir, history: histories.get(run.agent) ?? null }, publication, rules, fetched.get(run.agent))
    if (!outcome.failure) await saveBaselineToCache(deps, run.agent, run.dir)
    outcomes.push(outcome)
  }
  return outcomes
}
