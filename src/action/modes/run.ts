import { runAgents } from '../../cli/commands/run.ts'
import type { RunSettings } from '../../journal/records.ts'
import type { ActionDeps } from '../deps.ts'
import { planPublication } from '../plan-publication.ts'
import { publishAgent, type AgentOutcome } from '../publish-agent.ts'
import { uploadRun } from '../upload-run.ts'
import { waitFor } from '../wait-for.ts'

/**
 * mode: run — wait for the agent, play the scenarios in this process (the same runner as `convy-ci
 * run`), upload each run, and on a pull request compare it with its baseline and publish.
 */
export async function runMode(deps: ActionDeps): Promise<AgentOutcome[]> {
  const { inputs, log } = deps
  if (inputs.waitFor) {
    log.info(`waiting up to ${inputs.waitFor.timeoutSeconds} s for ${inputs.waitFor.url}`)
    const answered = await waitFor({ ...inputs.waitFor, signal: deps.cli.signal, onWaiting: (message) => log.info(message) })
    log.info(`${inputs.waitFor.url} answered (HTTP ${answered.status}) after ${answered.seconds.toFixed(1)} s`)
  }
  const settings: RunSettings = {
    k: inputs.attempts,
    parallel: inputs.parallel,
    turnTimeoutSeconds: inputs.turnTimeoutSeconds,
    scenarioGlobs: inputs.scenarios,
    tags: inputs.tags,
    smoke: false,
    shard: inputs.shard,
  }
  const { runs } = await runAgents(deps.cli, { agents: inputs.agents, settings, config: inputs.config })
  deps.cli.signal.throwIfAborted()

  // A shard is one slice of a run: the merge job compares and publishes the whole.
  const publication = inputs.shard ? { baseline: { none: null }, target: null } : await planPublication(deps)
  const outcomes: AgentOutcome[] = []
  for (const run of runs) {
    const { reportUrl } = await uploadRun(deps, run.agent, run.dir, inputs.shard)
    outcomes.push(await publishAgent(deps, { agent: run.agent, dir: run.dir, reportUrl }, publication))
  }
  return outcomes
}
