import { compareRuns } from '../compare/compare-runs.ts'
import type { Comparison, Direction } from '../compare/comparison.ts'
import { dollars, percent, plural } from '../report/format.ts'
import { commentMarker, comparisonMarkdown } from '../report/compare-markdown.ts'
import { standingTitle } from '../report/compare-wording.ts'
import { gate, gateFails, gateRun, type GateResult } from '../compare/gate.ts'
import { standing } from '../compare/standing.ts'
import { rejudgeFlagged } from '../pipeline/rejudge-flagged.ts'
import { afterRejudging } from '../compare/rejudged.ts'
import type { ActionDeps } from './deps.ts'
import { baselineSourceLine } from './baseline-source.ts'
import { fetchBaseline, type BaselineWhere, type FetchedBaseline } from './fetch-baseline.ts'
import { postToPullRequest, type PublishTarget } from './post-to-pull-request.ts'
import { publishingJob } from '../github/artifact-names.ts'
import { checkRunName } from '../github/check-run.ts'
import { passRate, runCounts, type RunCounts } from '../tally/run-counts.ts'
import type { RunTally } from '../tally/run-tally.ts'
import { runMarkdown } from '../report/run-markdown.ts'

export type OutcomeVerdict = Direction | 'no-baseline'

/** What one agent's run came to: the outputs, the job summary's part, and whether it fails the step. */
export interface AgentOutcome {
  agent: string
  runId: string
  /** Passed attempts out of attempts with a verdict, as in the report; null with no verdicts. */
  passRate: number | null
  verdict: OutcomeVerdict
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
 * Compares a finished run with its baseline, when there is one to fetch, publishes the result on the
 * pull request, and decides whether the run fails the step.
 */
export async function publishAgent(deps: ActionDeps, run: FinishedRun, publication: Publication): Promise<AgentOutcome> {
  const after = run.tally
  const counts = runCounts(after)
  const job = publishingJob(deps.inputs.artifactName)

  const baseline: FetchedBaseline | { tally: null; why: string | null } =
    'none' in publication.baseline ? { tally: null, why: publication.baseline.none } : await fetchBaseline(deps, run.agent, publication.baseline)
  let comparison: Comparison | null = null
  let markdown: string
  if (baseline.tally) {
    comparison = compareRuns(baseline.tally, after, { now: deps.context.now() })
    comparison = await rejudgeDeciding(deps, run, baseline.tally, comparison)
    const source = baselineSourceLine(baseline.tally, baseline.source, deps.github, deps.context.now())
    markdown = `${comparisonMarkdown(comparison, { reportUrl: run.reportUrl, job })}\n${source}\n`
  } else {
    markdown = runMarkdown(run.agent, counts, { reportUrl: run.reportUrl, noComparison: baseline.why, job })
    if (baseline.why) deps.log.notice(`${run.agent}: no baseline, nothing compared: ${baseline.why}`)
  }

  const budgetStop = budgetStopNote(after)
  if (budgetStop) markdown += `\n> ⚠️ ${budgetStop}; a larger budget-usd plays the rest.\n`
  const unfinished = after.manifest.state === 'finished' ? null : `${run.agent}: ${budgetStop ?? `the run did not finish (${after.manifest.state})`}`
  const gated = gateOf(deps.inputs, counts, comparison)
  const failure = failureOf(deps.inputs, run.agent, unfinished, gated)
  if (gated.outcome === 'inconclusive') deps.log.notice(`${run.agent}: inconclusive (fail-on: ${deps.inputs.failOn}): ${gated.reason}`)
  const verdict: OutcomeVerdict = comparison?.verdict ?? 'no-baseline'
  const commentUrl = publication.target
    ? await postToPullRequest(deps, publication.target, {
        agent: run.agent,
        marker: commentMarker(run.agent, job),
        checkName: checkRunName(run.agent, job),
        markdown,
        verdict,
        noteworthy: comparison !== null && standing(comparison) !== 'within-noise',
        conclusion: failure ? 'failure' : gated.outcome === 'inconclusive' || verdict === 'worse' ? 'neutral' : 'success',
        title: checkTitle(comparison, counts),
        reportUrl: run.reportUrl,
      })
    : null
  return { agent: run.agent, runId: after.manifest.id, passRate: passRate(counts), verdict, reportUrl: run.reportUrl, commentUrl, markdown, failure }
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

/**
 * The gate decides on the statistics alone (compare/gate.ts): with a baseline, the comparison; without
 * one, `fail-on: failing` on the run's own attempts. An attempt without a verdict never fails it.
 */
function gateOf(inputs: ActionDeps['inputs'], counts: RunCounts, comparison: Comparison | null): GateResult {
  if (comparison) return gate(comparison, { failOn: inputs.failOn, acrossJudgeChange: inputs.gateAcrossJudgeChange })
  return gateRun({ passed: counts.passed, failed: counts.failed, agentErrors: counts.agentErrors, noVerdicts: counts.noVerdicts }, inputs.failOn)
}

/**
 * Whether the step fails, and why: below `fail-on: never`, a run that did not finish (interrupted, or
 * stopped at its budget) fails as `convy-ci run` exits 1 for it; then the gate, an inconclusive one
 * only with fail-on-inconclusive.
 */
function failureOf(inputs: ActionDeps['inputs'], agent: string, unfinished: string | null, gated: GateResult): string | null {
  if (inputs.failOn === 'never') return null
  if (unfinished) return unfinished
  if (!gateFails(gated, inputs.failOnInconclusive)) return null
  if (gated.outcome === 'inconclusive') return `${agent}: inconclusive (fail-on-inconclusive): ${gated.reason}`
  return inputs.failOn === 'worse' ? `${agent}: worse than the baseline (fail-on: worse)` : `${agent}: not every attempt passed (fail-on: failing)`
}

/** What a run that stopped itself at its budget played and spent; null for any other run. */
function budgetStopNote(run: RunTally): string | null {
  if (run.manifest.stoppedFor !== 'budget') return null
  const limit = run.manifest.settings.budgetUsd
  return `the run stopped at its budget${limit ? ` of ${dollars(limit)}` : ''} after ${plural(run.attempts, 'attempt')}, having spent ${dollars(run.costUsd)}`
}

function checkTitle(comparison: Comparison | null, counts: RunCounts): string {
  const shown = (rate: number | null) => (rate === null ? '–' : percent(rate))
  if (comparison) return `${standingTitle(comparison)}: pass rate ${shown(comparison.tiles.passRate.before)} → ${shown(comparison.tiles.passRate.after)}`
  return `No baseline: pass rate ${shown(passRate(counts))} (${counts.passed} of ${counts.judged})`
}
