import { gate } from '../compare/gate.ts'
import { compareRuns } from '../compare/compare-runs.ts'
import type { Comparison, Direction } from '../compare/comparison.ts'
import { dollars, percent, plural } from '../report/format.ts'
import { commentMarker, comparisonMarkdown } from '../report/compare-markdown.ts'
import { directionTitle } from '../report/compare-wording.ts'
import { ExitCode } from '../shared/errors.ts'
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
    const source = baselineSourceLine(baseline.tally, baseline.source, deps.github, deps.context.now())
    markdown = `${comparisonMarkdown(comparison, { reportUrl: run.reportUrl, job })}\n${source}\n`
  } else {
    markdown = runMarkdown(run.agent, counts, { reportUrl: run.reportUrl, noComparison: baseline.why, job })
    if (baseline.why) deps.log.notice(`${run.agent}: no baseline, nothing compared: ${baseline.why}`)
  }

  const budgetStop = budgetStopNote(after)
  if (budgetStop) markdown += `\n> ⚠️ ${budgetStop}; a larger budget-usd plays the rest.\n`
  const failure = failureOf(deps.inputs.failOn, run.agent, budgetStop ?? `the run did not finish (${after.manifest.state})`, after.manifest.state, counts, comparison)
  const verdict: OutcomeVerdict = comparison?.verdict ?? 'no-baseline'
  const commentUrl = publication.target
    ? await postToPullRequest(deps, publication.target, {
        agent: run.agent,
        marker: commentMarker(run.agent, job),
        checkName: checkRunName(run.agent, job),
        markdown,
        verdict,
        conclusion: failure ? 'failure' : verdict === 'worse' ? 'neutral' : 'success',
        title: checkTitle(comparison, counts),
        reportUrl: run.reportUrl,
      })
    : null
  return { agent: run.agent, runId: after.manifest.id, passRate: passRate(counts), verdict, reportUrl: run.reportUrl, commentUrl, markdown, failure }
}

/**
 * fail-on decides: `worse` fails on a Worse verdict, `failing` on any attempt that did not pass,
 * `never` on nothing. Below `never`, a run that is not whole (interrupted, agent errors, convy-ci's
 * models failing) fails too, as `convy-ci run` exits 1 for it.
 */
function failureOf(failOn: ActionDeps['inputs']['failOn'], agent: string, unfinished: string, state: string, counts: RunCounts, comparison: Comparison | null): string | null {
  if (failOn === 'never') return null
  if (state !== 'finished') return `${agent}: ${unfinished}`
  const withoutVerdict = counts.agentErrors + counts.noVerdicts
  if (withoutVerdict > 0) return `${agent}: ${withoutVerdict} of ${counts.attempts} attempts ended without a verdict (agent errors or failures of convy-ci's models)`
  if (comparison) {
    if (gate(comparison, failOn) === ExitCode.Ok) return null
    return failOn === 'worse' ? `${agent}: worse than the baseline (fail-on: worse)` : `${agent}: not every attempt passed (fail-on: failing)`
  }
  return failOn === 'failing' && counts.passed < counts.attempts ? `${agent}: not every attempt passed (fail-on: failing)` : null
}

/** What a run that stopped itself at its budget played and spent; null for any other run. */
function budgetStopNote(run: RunTally): string | null {
  if (run.manifest.stoppedFor !== 'budget') return null
  const limit = run.manifest.settings.budgetUsd
  return `the run stopped at its budget${limit ? ` of ${dollars(limit)}` : ''} after ${plural(run.attempts, 'attempt')}, having spent ${dollars(run.costUsd)}`
}

function checkTitle(comparison: Comparison | null, counts: RunCounts): string {
  const shown = (rate: number | null) => (rate === null ? '–' : percent(rate))
  if (comparison) return `${directionTitle(comparison.verdict)}: pass rate ${shown(comparison.tiles.passRate.before)} → ${shown(comparison.tiles.passRate.after)}`
  return `No baseline: pass rate ${shown(passRate(counts))} (${counts.passed} of ${counts.judged})`
}
