import type { InconclusiveKind } from '../../verdict/gate.ts'
import { publishingJob } from '../../adapters/github/artifact-names.ts'
import { calibrationNear, type ProjectCalibration } from '../../app/pipeline/judge-calibration.ts'
import type { PublishDeps } from '../../app/publish/deps.ts'
import type { PublishTarget } from '../../app/publish/post-to-pull-request.ts'
import { gatherEvidence } from '../../app/pipeline/reconsider.ts'
import { baselineHealth, type BaselineFound } from '../../verdict/baseline-health.ts'
import { publishRun, type OutcomeVerdict } from '../../app/publish/publish-run.ts'
import { passRate, runCounts } from '../../records/tally/run-counts.ts'
import type { RunTally } from '../../records/tally/run-tally.ts'
import type { ActionDeps } from './deps.ts'
import type { History } from '../../records/tally/trend.ts'
import { fetchBaseline, type BaselineWhere, type FetchedBaseline } from './fetch-baseline.ts'
import { calibrationDifference, type BaseJudge, type RulesDecided } from '../../app/publish/gate-rules.ts'

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
  /** The default branch's last runs (history.ts), for the trend in the comment; null or absent: none. */
  history?: History | null
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
 * `fetched`: the baseline already fetched before the run (adaptive attempts), compared with as it is,
 * its health now held against the run.
 */
export async function publishAgent(deps: ActionDeps, run: FinishedRun, publication: Publication, rules: RulesDecided | null = null, fetched?: FetchedBaseline): Promise<AgentOutcome> {
  const baseline: BaselineFound =
    'none' in publication.baseline ? { tally: null, why: publication.baseline.none } : fetched ? heldAgainst(fetched, run.tally) : await fetchBaseline(deps, run.agent, publication.baseline, run.tally)
  const own = await calibrationNear(deps.context.cwd, { config: deps.inputs.config }, { minKappa: deps.inputs.judgeMinKappa, labels: deps.inputs.judgeLabels ?? undefined })
  const { judge, rules: decided } = withBaseCalibration(own, rules)
  // The project's key pays only for the project's settings: never for judge samples or a review a run.json asks for.
  const evidence = { after: run.tally, afterDir: run.dir ?? null, rejudge: deps.inputs.rejudge, config: deps.inputs.config, projectSettingsOnly: true, baseJudge: baseJudgeOf(rules), log: (message: string) => deps.log.info(`${run.agent}: ${message}`) }
  const published = await publishRun(publishDeps(deps, judge, decided), run, baseline, publication.target, (before, comparison) => gatherEvidence(deps.context, evidence, before, comparison))
  // The verdict and which inconclusive come from the one decision the check and the step's failure read (verdict/decide-gate.ts).
  const { verdict, inconclusive, commentUrl, markdown, failure } = published
  return { agent: run.agent, runId: run.tally.manifest.id, passRate: passRate(runCounts(run.tally).scenarios), verdict, inconclusive, reportUrl: run.reportUrl, commentUrl, markdown, failure }
}

/**
 * A baseline fetched before the run: its health is held against the run now that there is one. How
 * far the walk back looked (`none of the newest 2 runs on the branch is healthier`) is said again.
 */
function heldAgainst(fetched: FetchedBaseline, run: RunTally): BaselineFound {
  if (!fetched.tally) return fetched
  const health = baselineHealth(fetched.tally, run)
  const lookedBack = !health.healthy && fetched.lookedBack ? ` (${fetched.lookedBack})` : ''
  return { ...fetched, health: lookedBack ? { healthy: false, reason: `${health.reason}${lookedBack}` } : health }
}

/**
 * The calibration the min_kappa gate reads: the base commit's where the base's rules were read (a pull
 * request's calibration.json must not vouch for its judge), with a changed one named among the rules'
 * differences; the pull request's own where no base decides. min_kappa is already the stricter of both.
 */
export function withBaseCalibration(own: ProjectCalibration, rules: RulesDecided | null): { judge: ProjectCalibration; rules: RulesDecided | null } {
  const baseCalibration = rules?.baseCalibration
  if (!rules || !baseCalibration) return { judge: own, rules }
  const judge = { minKappa: own.minKappa, calibration: baseCalibration.calibration, path: baseCalibration.path }
  const changed = calibrationDifference(own.calibration, baseCalibration.calibration, rules.base)
  return { judge, rules: changed ? { ...rules, differences: [...rules.differences, changed] } : rules }
}

/** The base branch's judge, which the gate judges with (app/pipeline/settle-judge.ts); null where no base decides. */
export function baseJudgeOf(rules: RulesDecided | null): { judge: BaseJudge; base: string } | null {
  return rules?.baseJudge ? { judge: rules.baseJudge, base: rules.base } : null
}

function publishDeps(deps: ActionDeps, judge: NonNullable<PublishDeps['settings']['judge']>, rules: RulesDecided | null): PublishDeps {
  const { inputs } = deps
  return {
    octokit: deps.octokit,
    repository: deps.github.repository,
    serverUrl: deps.github.serverUrl,
    settings: {
      failOn: inputs.failOn,
      failOnInconclusive: inputs.failOnInconclusive,
      gateAcrossJudgeChange: inputs.gateAcrossJudgeChange,
      failOnSlower: inputs.failOnSlower,
      failOnCostlier: inputs.failOnCostlier,
      minSpeedChangeSeconds: inputs.minSpeedChangeSeconds,
      comment: inputs.comment,
      check: inputs.check,
      job: publishingJob(inputs.artifactName),
      judge,
      rules: rules ?? undefined,
    },
    log: deps.log,
    now: () => deps.context.now(),
    mask: deps.mask,
  }
}
