import { compareRuns } from '../../verdict/compare-runs.ts'
import type { Direction } from '../../verdict/decide.ts'
import type { Comparison } from '../../verdict/comparison.ts'
import { gateFails, type GateResult, type InconclusiveKind } from '../../verdict/gate.ts'
import { decideGate, type GateDecision } from '../../verdict/decide-gate.ts'
import { standing } from '../../verdict/standing.ts'
import { judgeGate } from '../../verdict/judge-calibration.ts'
import { calibrationMarkdown } from '../../views/markdown/judge-calibration-markdown.ts'
import { checkRunName, type CheckConclusion } from '../../adapters/github/check-run.ts'
import { commentMarker, comparisonMarkdown } from '../../views/markdown/compare-markdown.ts'
import { standingTitle } from '../../views/compare/compare-wording.ts'
import { dollars, percent, plural } from '../../views/page/format.ts'
import { runMarkdown } from '../../views/markdown/run-markdown.ts'
import { errorGroups } from '../../records/tally/error-groups.ts'
import { passRate, runCounts, type RunCounts } from '../../records/tally/run-counts.ts'
import type { RunTally } from '../../records/tally/run-tally.ts'
import { trendOf, type History, type Trend } from '../../records/tally/trend.ts'
import { baselineSourceLine, type BaselineSource } from './baseline-source.ts'
import type { BaselineHealth } from '../../verdict/baseline-health.ts'
import { neutralise } from '../../views/markdown/neutralise.ts'
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

/**
 * The baseline found for it, or why there is none (null: none was expected, as on a push). `health`:
 * how it stands against the run (walk-back.ts); absent, it was not looked at and counts as healthy.
 * `dir`: its run folder on this machine, where its dialogues can be judged again.
 */
export type BaselineFound = { tally: RunTally; source: BaselineSource; health?: BaselineHealth; passedOver?: readonly string[]; dir?: string } | { tally: null; why: string | null }

/** A baseline that was found. */
export type FoundBaseline = Extract<BaselineFound, { source: BaselineSource }>

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

  const judged = settings.judge ? judgeGate(settings.judge.minKappa, settings.judge.calibration, after.manifest) : null
  let comparison: Comparison | null = null
  let notes: string[] = []
  if (baseline.tally) {
    // The default branch's recent runs say how much its answer time drifts from run to run (verdict/speed.ts).
    const speedHistory = run.history?.entries.map((entry) => entry.summary.medianAnswerSeconds)
    comparison = compareRuns(baseline.tally, after, { now: deps.now(), ...(speedHistory ? { speedHistory } : {}) })
    if (reconsider) ({ comparison, notes } = await reconsider(baseline, comparison))
  }
  // One decision (verdict/decide-gate.ts): the verdict output, the check, the step's failure and the comment all read it.
  const decision = decideGate(comparison ? { comparison } : { run: counts }, {
    failOn: settings.failOn,
    acrossJudgeChange: settings.gateAcrossJudgeChange,
    health: baseline.tally ? baseline.health : null,
    judge: judged,
    slowerPercent: settings.failOnSlower ?? null,
    costlierPercent: settings.failOnCostlier ?? null,
    unmetRules: comparison ? (settings.rules?.unmet ?? []) : [],
  })
  const gated = decision.result

  let markdown: string
  if (baseline.tally && comparison) {
    const source = baselineSourceLine(baseline.tally, baseline.source, deps, deps.now())
    const noted = notes.map((note) => `> ℹ️ ${neutralise(note, 600)}\n\n`).join('')
    markdown = `${underHeading(comparisonMarkdown(comparison, { reportUrl: run.reportUrl, job, trend: trendOfRun(run) }), `${healthLines(baseline)}${gateLines(comparison, decision)}${noted}`)}\n${source}\n`
    if (baseline.health && !baseline.health.healthy) deps.log.warning(`${run.agent}: ${baseline.health.reason}`)
  } else {
    const why = 'why' in baseline ? baseline.why : null
    const advice = why ? `**Not a pass** (a neutral check): without a baseline nothing shows this run is as good as the default branch's. ${NO_BASELINE_HOW}` : null
    markdown = runMarkdown(run.agent, counts, { reportUrl: run.reportUrl, noComparison: why, advice, job, errors: errorGroups(after.scenarios.values()) })
    if (why) deps.log.notice(`${run.agent}: no baseline, nothing compared (a neutral check, never success): ${why}`)
  }
  // A baseline was expected (a pull request, a merge group) and there is none: never a green check.
  const baselineMissing = !comparison && 'why' in baseline && baseline.why !== null

  const differences = settings.rules?.differences ?? []
  if (differences.length > 0) markdown = underHeading(markdown, `> 🟧 **This pull request changes the gate's rules; the base branch's decide:**\n${differences.map((d) => `> - ${neutralise(d, 400)}`).join('\n')}\n\n`)
  const unverified = target?.unverified ?? null
  if (unverified) markdown = underHeading(markdown, `> ⚠️ **Unverified: ${neutralise(unverified, 300)}.** The run was made by code this repository does not control, so its check is never success, whatever the run says; a Worse still fails. A maintainer can run it in a trusted context (docs/action.md, "Pull requests from forks").\n\n`)
  if (judged) markdown += calibrationMarkdown(judged.status)
  const budgetStop = budgetStopNote(after)
  if (budgetStop) markdown += `\n> ⚠️ ${budgetStop}; a larger budget-usd plays the rest.\n`
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

/** How a pull request gets a baseline: said wherever there is none. */
export const NO_BASELINE_HOW =
  "To make one: run this workflow on the default branch (push to it, or re-run its latest successful run); the run it uploads is the baseline of later pull requests. Artifacts expire with the repository's retention; `baseline: none` in the workflow never compares."

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
  if (settings.failOn === 'worse' && gated.reason.startsWith('Worse')) return `${agent}: worse than the baseline (fail-on: worse)`
  if (settings.failOn === 'failing' && / did not pass \(fail-on: failing\)/.test(gated.reason)) return `${agent}: not every attempt passed (fail-on: failing)`
  return `${agent}: ${gated.reason}`
}

/**
 * The gate's decision right under the heading, when it says more than the heading's standing (made
 * from the comparison alone): an unhealthy baseline, an unchecked judge, or a speed or cost limit
 * passed turn a within-noise or better comparison into an inconclusive or failing gate, and the
 * comment says so first, as the verdict output and the check do. The reason names scenarios and may
 * quote model names: neutralised.
 */
function gateLines(comparison: Comparison, decision: GateDecision): string {
  if (!gateBeyondStanding(comparison, decision)) return ''
  const word = decision.verdict === 'worse' ? '🟥 Gate: fails' : `🟧 Gate: inconclusive, ${(decision.inconclusive ?? 'evidence-missing').replace(/-/g, ' ')}`
  return `> **${word}** (verdict: ${decision.verdict}). ${neutralise(decision.worse!.reason, 1_500)}\n\n`
}

/** Whether the gate (fail-on: worse) decided more than the heading, made from the comparison alone, says. */
function gateBeyondStanding(comparison: Comparison, decision: GateDecision): boolean {
  if (!decision.worse || decision.worse.outcome === 'pass') return false
  const shown = standing(comparison)
  if (decision.verdict === 'worse') return shown !== 'worse'
  return shown === 'within-noise' || shown === 'better' || shown === 'worse' || (shown === 'cannot-tell' && decision.inconclusive === 'evidence-missing')
}

/**
 * The comment's first lines about the baseline itself: unreliable (none of the runs walked back
 * through was healthy), or walked back to past newer runs that were. Empty for a healthy newest run.
 */
function healthLines(baseline: FoundBaseline): string {
  if (baseline.health && !baseline.health.healthy) return `> ⚠️ ${neutralise(capitalise(baseline.health.reason ?? 'the baseline is unreliable'), 600)}.\n\n`
  const over = baseline.passedOver ?? []
  if (over.length === 0) return ''
  return `> ℹ️ Compared with an older run of the default branch: ${plural(over.length, 'newer run')} had too many errors to stand for it (${neutralise(over[0]!, 400)}${over.length > 1 ? '; …' : ''}).\n\n`
}

/** `lines` right under the comment's heading: its first lines, and the marker stays first. */
function underHeading(markdown: string, lines: string): string {
  if (!lines) return markdown
  const heading = /^#{1,6} .*\n\n/m.exec(markdown)
  if (!heading) return `${lines}${markdown}`
  const end = heading.index + heading[0].length
  return `${markdown.slice(0, end)}${lines}${markdown.slice(end)}`
}

function trendOfRun(run: RunToPublish): Trend | null {
  const { manifest } = run.tally
  return run.history ? trendOf(run.history, { id: manifest.id, agent: manifest.agent.name, startedAt: manifest.startedAt }) : null
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1)
}

/** What a run that stopped itself at its budget played and spent; null for any other run. */
function budgetStopNote(run: RunTally): string | null {
  if (run.manifest.stoppedFor !== 'budget') return null
  const limit = run.manifest.settings.budgetUsd
  return `the run stopped at its budget${limit ? ` of ${dollars(limit)}` : ''} after ${plural(run.attempts, 'attempt')}, having spent ${dollars(run.costUsd)}`
}

function checkTitle(comparison: Comparison | null, counts: RunCounts, decision: GateDecision): string {
  const shown = (rate: number | null) => (rate === null ? '–' : percent(rate))
  // The gate's word first where it is more than the comparison's standing says (gateLines).
  const gateWord = comparison && gateBeyondStanding(comparison, decision) ? `Gate: ${decision.verdict} · ` : ''
  if (comparison) return `${gateWord}${standingTitle(comparison)}: pass rate ${shown(comparison.tiles.passRate.before)} → ${shown(comparison.tiles.passRate.after)}`
  return `No baseline: pass rate ${shown(passRate(counts.scenarios))} (${counts.passed} of ${counts.counted})`
}
