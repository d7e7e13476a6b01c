import { compareRuns } from '../../verdict/compare-runs.ts'
import type { Direction } from '../../verdict/decide.ts'
import type { Comparison } from '../../verdict/comparison.ts'
import { gateFails, type GateResult, type InconclusiveKind } from '../../verdict/gate.ts'
import { decideGate, gateBeyondStanding } from '../../verdict/decide-gate.ts'
import { standing } from '../../verdict/standing.ts'
import { judgeGate } from '../../verdict/judge-calibration.ts'
import type { BaselineFound, FoundBaseline } from '../../verdict/baseline-health.ts'
import { checkRunName, type CheckConclusion } from '../../adapters/github/check-run.ts'
import { commentMarker } from '../../views/markdown/compare-markdown.ts'
import { budgetStopNote, checkTitle, publishMarkdown } from '../../views/markdown/publish-markdown.ts'
import { runCounts } from '../../records/tally/run-counts.ts'
import type { RunTally } from '../../records/tally/run-tally.ts'
import type { RunManifest } from '../../records/journal/records.ts'
import { trendOf, type History, type Trend } from '../../records/tally/trend.ts'
import type { PublishDeps, PublishSettings } from './deps.ts'
import { postToPullRequest, type PublishTarget } from './post-to-pull-request.ts'

export type OutcomeVerdict = Direction | 'inconclusive' | 'no-baseline'

/** The run being published: counted once where it was read (its report, or its folder). */
export interface RunToPublish {
  agent: string
  tally: RunTally
  reportUrl: string | null
  /** The default branch's last runs: a trend line in the comment for the scenarios that moved. */
  history?: History | null
}

export interface Published {
  comparison: Comparison | null
  verdict: OutcomeVerdict
  /** With verdict inconclusive, which one (from the same decision as the verdict); null otherwise. */
  inconclusive: InconclusiveKind | null
  /** The comment's text, which is also the check's summary and the job summary's part. */
  markdown: string
  gated: GateResult
  /** Why this run fails the step or the command, or null. */
  failure: string | null
  /**
   * What the failure is: the gate failed or the run did not finish (`fail`), or the gate lacks evidence
   * (`evidence-missing`, which `convy-ci publish` exits 3 for, as `compare` does); null without a failure.
   */
  failedBy: 'fail' | 'evidence-missing' | null
  conclusion: CheckConclusion
  commentUrl: string | null
}

/**
 * A comparison made anew before the gate decides (the action's `rejudge` input judges the deciding
 * scenarios again); absent, the comparison stands.
 */
export type Reconsider = (baseline: FoundBaseline, comparison: Comparison) => Promise<Reconsidered>

/** The comparison made anew, and what was done for it, said in the comment's first lines. */
export interface Reconsidered {
  comparison: Comparison
  notes: string[]
  /** Why the gate cannot pass on it (the base branch's judge could not be asked): evidence missing. */
  unmet?: string[]
  /** The run's manifest as the comparison judged it (another judge, settle-judge.ts): its calibration is that judge's. */
  judgedAs?: RunManifest
}

/**
 * Compares a run with its baseline when there is one, writes the markdown, decides the gate on the
 * statistics alone, and posts the sticky comment and the check when there is a target. The one
 * implementation behind the action and `convy-ci publish`.
 */
export async function publishRun(deps: PublishDeps, run: RunToPublish, baseline: BaselineFound, target: PublishTarget | null, reconsider?: Reconsider): Promise<Published> {
  const { settings } = deps
  const after = run.tally
  const counts = runCounts(after)
  const job = settings.job

  let judgedAs = after.manifest
  let comparison: Comparison | null = null
  let notes: string[] = []
  let unmetByEvidence: string[] = []
  if (baseline.tally) {
    // The default branch's recent runs say how much its answer time drifts from run to run (verdict/speed.ts).
    const speedHistory = run.history?.entries.map((entry) => entry.summary.medianAnswerSeconds)
    const minSpeed = settings.minSpeedChangeSeconds === undefined ? {} : { minSpeedChangeSeconds: settings.minSpeedChangeSeconds }
    comparison = compareRuns(baseline.tally, after, { now: deps.now(), ...minSpeed, ...(speedHistory ? { speedHistory } : {}) })
    if (reconsider) {
      const reconsidered = await reconsider(baseline, comparison)
      ;({ comparison, notes } = reconsidered)
      unmetByEvidence = reconsidered.unmet ?? []
      judgedAs = reconsidered.judgedAs ?? judgedAs
    }
  }
  // The calibration gate holds the judge the gate used: the base branch's, where it settled a judge change.
  const judged = settings.judge ? judgeGate(settings.judge.minKappa, settings.judge.calibration, judgedAs) : null
  // One decision (verdict/decide-gate.ts): the verdict output, the check, the step's failure and the comment all read it.
  const decision = decideGate(comparison ? { comparison } : { run: counts }, {
    failOn: settings.failOn,
    acrossJudgeChange: settings.gateAcrossJudgeChange,
    health: baseline.tally ? baseline.health : null,
    judge: judged,
    slowerPercent: settings.failOnSlower ?? null,
    costlierPercent: settings.failOnCostlier ?? null,
    unmetRules: comparison ? [...(settings.rules?.unmet ?? []), ...unmetByEvidence] : [],
  })
  const gated = decision.result

  if (baseline.tally && baseline.health && !baseline.health.healthy) deps.log.warning(`${run.agent}: ${baseline.health.reason}`)
  const why = 'why' in baseline ? baseline.why : null
  if (!comparison && why) deps.log.notice(`${run.agent}: no baseline, nothing compared (a neutral check, never success): ${why}`)
  // A baseline was expected (a pull request, a merge group) and there is none: never a green check.
  const baselineMissing = !comparison && why !== null
  const differences = settings.rules?.differences ?? []
  const unverified = target?.unverified ?? null
  const markdown = publishMarkdown({
    agent: run.agent,
    job,
    reportUrl: run.reportUrl,
    run: after,
    counts,
    compared: baseline.tally && comparison ? { comparison, baseline, decision, notes, unmet: unmetByEvidence, trend: trendOfRun(run) } : null,
    noBaselineWhy: why,
    github: deps,
    now: deps.now(),
    differences,
    unverified,
    judge: judged,
  })
  const budgetStop = budgetStopNote(after)
  const unfinished = after.manifest.state === 'finished' ? null : `${run.agent}: ${budgetStop ?? `the run did not finish (${after.manifest.state})`}`
  const failure = failureOf(settings, run.agent, unfinished, gated)
  if (gated.outcome === 'inconclusive') deps.log.notice(`${run.agent}: inconclusive (fail-on: ${settings.failOn}): ${gated.reason}`)
  const verdict: OutcomeVerdict = decision.verdict ?? 'no-baseline'
  // Neutral, never success, where the verdict output is worse or inconclusive but this fail-on does not fail the step.
  const conclusion: CheckConclusion = failure ? 'failure' : unverified || baselineMissing || gated.outcome === 'inconclusive' || verdict === 'worse' || verdict === 'inconclusive' ? 'neutral' : 'success'
  const commentUrl = target
    ? await postToPullRequest(deps, target, {
        agent: run.agent,
        marker: commentMarker(run.agent, job),
        checkName: checkRunName(run.agent, job),
        markdown,
        verdict,
        // A scenario removed, retired, renamed or edited is said even when nothing else moved.
        // A missing baseline is said too: the comment tells how to make one.
        noteworthy: baselineMissing || unverified !== null || differences.length > 0 || (comparison !== null && (standing(comparison) !== 'within-noise' || comparison.scenarioChanges.length > 0 || gateBeyondStanding(comparison, decision))),
        conclusion,
        title: `${unverified ? 'Unverified (a fork’s workflow) · ' : ''}${differences.length > 0 ? 'Base branch’s rules · ' : ''}${checkTitle(comparison, counts, decision)}`,
        reportUrl: run.reportUrl,
      })
    : null
  const failedBy = failure === null ? null : !unfinished && gated.inconclusive === 'evidence-missing' ? 'evidence-missing' : 'fail'
  return { comparison, verdict, inconclusive: decision.inconclusive, markdown, gated, failure, failedBy, conclusion, commentUrl }
}

/**
 * Whether the run fails, and why: below `fail-on: never`, a run that did not finish (interrupted, or
 * stopped at its budget) fails as `convy-ci run` exits 1 for it; then the gate, an inconclusive one
 * only with fail-on-inconclusive. Under `fail-on: never` only a speed or cost limit asked for on its
 * own can fail it (verdict/decide-gate.ts).
 */
function failureOf(settings: PublishSettings, agent: string, unfinished: string | null, gated: GateResult): string | null {
  if (settings.failOn !== 'never' && unfinished) return unfinished
  if (!gateFails(gated, settings.failOnInconclusive)) return null
  if (gated.outcome === 'inconclusive') return `${agent}: inconclusive (fail-on-inconclusive): ${gated.reason}`
  if (settings.failOn === 'worse' && gated.failKind === 'worse') return `${agent}: worse than the baseline (fail-on: worse)`
  if (settings.failOn === 'failing' && gated.failKind === 'not-all-passed') return `${agent}: not every attempt passed (fail-on: failing)`
  return `${agent}: ${gated.reason}`
}

function trendOfRun(run: RunToPublish): Trend | null {
  const { manifest } = run.tally
  return run.history ? trendOf(run.history, { id: manifest.id, agent: manifest.agent.name, startedAt: manifest.startedAt }) : null
}
