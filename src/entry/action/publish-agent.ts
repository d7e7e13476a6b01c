import { compareRuns } from '../../verdict/compare-runs.ts'
import type { Comparison } from '../../verdict/comparison.ts'
import { afterRejudging } from '../../verdict/rejudged.ts'
import { gate, type InconclusiveKind } from '../../verdict/gate.ts'
import { publishingJob } from '../../adapters/github/artifact-names.ts'
import { rejudgeFlagged } from '../../app/pipeline/rejudge-flagged.ts'
import type { PublishDeps } from '../../app/publish/deps.ts'
import type { PublishTarget } from '../../app/publish/post-to-pull-request.ts'
import { publishRun, type BaselineFound, type OutcomeVerdict } from '../../app/publish/publish-run.ts'
import { plural } from '../../views/page/format.ts'
import { passRate, runCounts } from '../../records/tally/run-counts.ts'
import type { RunTally } from '../../records/tally/run-tally.ts'
import type { ActionDeps } from './deps.ts'
import { fetchBaseline, type BaselineWhere } from './fetch-baseline.ts'

export type { OutcomeVerdict } from '../../app/publish/publish-run.ts'

/** What one agent's run came to: the outputs, the job summary's part, and whether it fails the step. */
export interface AgentOutcome {
  agent: string
  runId: string
  /** Passed attempts out of attempts with a verdict, as in the report; null with no verdicts. */
  passRate: number | null
  verdict: OutcomeVerdict
  /** With verdict inconclusive: which — too-little-to-tell (neutral) or evidence-missing (fails by default). */
  inconclusive?: InconclusiveKind | null
  reportUrl: string | null
  commentUrl: string | null
  markdown: string
  /** Why this agent fails the step, or null. */
  failure: string | null
}

export interface FinishedRun {
  agent: string
  /** The run, counted once where it was read (its report, or its folder). */
  tally: RunTally
  reportUrl: string | null
  /** The run folder on this machine, when the run was played here: what `rejudge` reads the dialogues from. */
  dir?: string
}

/** Where a run is compared and published: the baseline to fetch, and the pull request if any. */
export interface Publication {
  /** `none`: nothing is fetched; the reason is said where a comparison was expected, null elsewhere (a push). */
  baseline: BaselineWhere | { none: string | null }
  target: PublishTarget | null
}

/**
 * Fetches a finished run's baseline (the artifact, or the Actions cache), then compares and publishes
 * through publish/, the code `convy-ci publish` shares, which also decides whether the run fails the step.
 */
export async function publishAgent(deps: ActionDeps, run: FinishedRun, publication: Publication): Promise<AgentOutcome> {
  const baseline: BaselineFound = 'none' in publication.baseline ? { tally: null, why: publication.baseline.none } : await fetchBaseline(deps, run.agent, publication.baseline)
  const published = await publishRun(publishDeps(deps), run, baseline, publication.target, (before, comparison) => rejudgeDeciding(deps, run, before, comparison))
  const { verdict, commentUrl, markdown, failure, comparison } = published
  // The kind as the verdict output decides it: the gate with fail-on worse, whatever fail-on the step uses.
  const inconclusive = comparison ? gate(comparison, { failOn: 'worse', acrossJudgeChange: deps.inputs.gateAcrossJudgeChange }).inconclusive : null
  return { agent: run.agent, runId: run.tally.manifest.id, passRate: passRate(runCounts(run.tally)), verdict, inconclusive, reportUrl: run.reportUrl, commentUrl, markdown, failure }
}

function publishDeps(deps: ActionDeps): PublishDeps {
  const { inputs } = deps
  return {
    octokit: deps.octokit,
    repository: deps.github.repository,
    serverUrl: deps.github.serverUrl,
    settings: {
      failOn: inputs.failOn,
      failOnInconclusive: inputs.failOnInconclusive,
      gateAcrossJudgeChange: inputs.gateAcrossJudgeChange,
      comment: inputs.comment,
      check: inputs.check,
      job: publishingJob(inputs.artifactName),
    },
    log: deps.log,
    now: () => deps.context.now(),
  }
}

/**
 * rejudge: m — the attempts of the scenarios that decide a Worse or Better verdict, judged m times
 * again, and the comparison made anew from their votes: a change that comes from the judge
 * disagreeing with itself is then labelled judge-unstable instead of failing the step.
 */
async function rejudgeDeciding(deps: ActionDeps, run: FinishedRun, baseline: RunTally, comparison: Comparison): Promise<Comparison> {
  const samples = deps.inputs.rejudge
  const deciding = [...comparison.scenarios.worse, ...comparison.scenarios.better].map((s) => s.id)
  if (samples === null || !run.dir || deciding.length === 0) return comparison
  deps.log.info(`${run.agent}: judging the attempts of ${plural(deciding.length, 'scenario')} that decide the verdict ${samples} times again (rejudge: ${samples})`)
  const tally = await rejudgeFlagged(deps.context, { dir: run.dir, scenarioIds: deciding, samples, config: deps.inputs.config })
  return afterRejudging(comparison, compareRuns(baseline, tally, { now: deps.context.now() }))
}
