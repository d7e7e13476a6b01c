import type { Comparison } from '../../verdict/comparison.ts'
import { gateBeyondStanding, type GateDecision } from '../../verdict/decide-gate.ts'
import type { BaselineSource, FoundBaseline } from '../../verdict/baseline-health.ts'
import type { JudgeGate } from '../../verdict/judge-calibration.ts'
import { ERROR_LABEL, errorGroups, quotedErrors, type ErrorGroup } from '../../records/tally/error-groups.ts'
import { passRate, type RunCounts } from '../../records/tally/run-counts.ts'
import type { RunTally } from '../../records/tally/run-tally.ts'
import type { Trend } from '../../records/tally/trend.ts'
import { standingTitle } from '../compare/compare-wording.ts'
import { dollars, fraction, percent, plural } from '../page/format.ts'
import { agentHeading, commentMarker, comparisonMarkdown } from './compare-markdown.ts'
import { neutralise } from './neutralise.ts'
import type { CalibrationStatus } from '../../records/calibration/calibration.ts'
import { calibrationSentence } from '../page/judge-calibration.ts'
import { passRateWords, undecidedCount, undecidedCounts } from '../page/verdict-words.ts'

/**
 * The pull request comment of a published run (also the check's summary and the job summary's
 * part): the comparison with its baseline and the gate's lines under its heading, or the run alone
 * when there is no baseline, then what the publication adds (the base branch's rules, an unverified
 * fork, the judge's calibration, a budget stop). app/publish/publish-run.ts decides; this says it.
 */

/** What the comment is made of, decided by the app. */
export interface CommentFacts {
  agent: string
  /** The job the comment belongs to; null for the default. */
  job: string | null
  reportUrl: string | null
  /** The run published, and its counts. */
  run: RunTally
  counts: RunCounts
  /** The comparison with its baseline, the gate's one decision and what was done for it (rejudge notes); null without a baseline. */
  compared: { comparison: Comparison; baseline: FoundBaseline; decision: GateDecision; notes: readonly string[]; unmet?: readonly string[]; trend: Trend | null } | null
  /** Why there is no baseline when one was expected; null when none was. */
  noBaselineWhy: string | null
  /** For the line that says where the baseline came from. */
  github: { serverUrl: string; repository: { owner: string; repo: string } }
  now: Date
  /** The base branch's rules that differ from the pull request's. */
  differences: readonly string[]
  /** Why the run is not trusted (a fork's workflow); null when it is. */
  unverified: string | null
  judge: JudgeGate | null
}

export function publishMarkdown(facts: CommentFacts): string {
  const { compared, run } = facts
  let markdown: string
  if (compared) {
    const { comparison, baseline } = compared
    const source = baselineSourceLine(baseline.tally, baseline.source, facts.github, facts.now)
    // What kept the evidence from being made (the base's judge could not be asked) first: the gate's reason.
    const noted = [...(compared.unmet ?? []).map((line) => `> ⚠️ **Not a pass:** ${neutralise(line, 600)}\n\n`), ...compared.notes.map((note) => `> ℹ️ ${neutralise(note, 600)}\n\n`)].join('')
    markdown = `${underHeading(comparisonMarkdown(comparison, { reportUrl: facts.reportUrl, job: facts.job, trend: compared.trend }), `${healthLines(baseline)}${gateLines(comparison, compared.decision)}${noted}`)}\n${source}\n`
  } else {
    const why = facts.noBaselineWhy
    const advice = why ? `**Not a pass** (a neutral check): without a baseline nothing shows this run is as good as the default branch's. ${NO_BASELINE_HOW}` : null
    markdown = runMarkdown(facts.agent, facts.counts, { reportUrl: facts.reportUrl, noComparison: why, advice, job: facts.job, errors: errorGroups(run.scenarios.values()) })
  }
  if (facts.differences.length > 0) markdown = underHeading(markdown, `> 🟧 **This pull request changes the gate's rules; the base branch's decide:**\n${facts.differences.map((d) => `> - ${neutralise(d, 400)}`).join('\n')}\n\n`)
  if (facts.unverified) markdown = underHeading(markdown, `> ⚠️ **Unverified: ${neutralise(facts.unverified, 300)}.** The run was made by code this repository does not control, so its check is never success, whatever the run says; a Worse still fails. A maintainer can run it in a trusted context (docs/action.md, "Pull requests from forks").\n\n`)
  if (facts.judge) markdown += calibrationMarkdown(facts.judge.status)
  const budgetStop = budgetStopNote(run)
  if (budgetStop) markdown += `\n> ⚠️ ${budgetStop}; a larger budget-usd plays the rest.\n`
  return markdown
}

/** How a pull request gets a baseline: said wherever there is none. */
export const NO_BASELINE_HOW =
  "To make one: run this workflow on the default branch (push to it, or re-run its latest successful run); the run it uploads is the baseline of later pull requests. Artifacts expire with the repository's retention; `baseline: none` in the workflow never compares."

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

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1)
}

/** What a run that stopped itself at its budget played and spent; null for any other run. */
export function budgetStopNote(run: RunTally): string | null {
  if (run.manifest.stoppedFor !== 'budget') return null
  const limit = run.manifest.settings.budgetUsd
  return `the run stopped at its budget${limit ? ` of ${dollars(limit)}` : ''} after ${plural(run.attempts, 'attempt')}, having spent ${dollars(run.costUsd)}`
}

/** The check's title: the gate's word first where it says more than the standing, then the pass rates. */
export function checkTitle(comparison: Comparison | null, counts: RunCounts, decision: GateDecision): string {
  const shown = (rate: number | null) => (rate === null ? '–' : percent(rate))
  // The gate's word first where it is more than the comparison's standing says (gateLines).
  const gateWord = comparison && gateBeyondStanding(comparison, decision) ? `Gate: ${decision.verdict} · ` : ''
  if (comparison) return `${gateWord}${standingTitle(comparison)}: pass rate ${shown(comparison.tiles.passRate.before)} → ${shown(comparison.tiles.passRate.after)}`
  return `No baseline: pass rate ${shown(passRate(counts.scenarios))} (${counts.passed} of ${counts.counted})`
}

/**
 * The sentence under a comparison that says where its baseline came from and how old it is: a
 * baseline from the cache may be older than the newest artifact, and a reader deserves to know.
 */
export function baselineSourceLine(tally: RunTally, source: BaselineSource, github: { serverUrl: string; repository: { owner: string; repo: string } }, now: Date): string {
  const { owner, repo } = github.repository
  const where =
    source.kind === 'artifact'
      ? `the artifact of [workflow run ${source.runId}](${github.serverUrl}/${owner}/${repo}/actions/runs/${source.runId})`
      : `the Actions cache (${neutralise(source.key, 200)}), as ${neutralise(source.because, 200)}`
  const made = Date.parse(tally.manifest.finishedAt ?? tally.manifest.startedAt)
  const age = Number.isNaN(made) ? '' : `, made ${ageOf(now.getTime() - made)} ago`
  return `_Baseline ${neutralise(tally.manifest.id, 100)}: from ${where}${age}._`
}

function ageOf(ms: number): string {
  const minutes = Math.max(0, Math.round(ms / 60_000))
  if (minutes < 90) return plural(minutes, 'minute')
  const hours = Math.round(minutes / 60)
  if (hours < 48) return plural(hours, 'hour')
  return plural(Math.round(hours / 24), 'day')
}

/**
 * The judge's calibration in the pull request's comment and the job summary: a quoted line under the
 * comment's other notes (a paragraph of its own), a warning when the calibration is of another judge. Model names come from files people
 * edit, so the sentence is neutralised like any text from a run.
 */
export function calibrationMarkdown(status: CalibrationStatus): string {
  const sentence = calibrationSentence(status)
  if (!sentence) return ''
  return `\n> ${status.kind === 'stale' ? '⚠️ ' : ''}${neutralise(sentence, 600)}\n`
}

const LISTED = 20

/**
 * What a run alone says, when there is nothing to compare it with: the job summary of a push, and
 * the comment or summary of a pull request without a baseline. Starts with the same hidden marker
 * as a comparison, so a later comparison replaces it in place. `errors` (tally/error-groups.ts) are
 * quoted, most frequent first: a first pull request whose agent did not come up says why.
 */
export function runMarkdown(
  agent: string,
  counts: RunCounts,
  options: { reportUrl: string | null; noComparison: string | null; advice?: string | null; job?: string | null; errors?: readonly ErrorGroup[] },
): string {
  const errors = [
    counts.agentErrors ? undecidedCount('agent_error', counts.agentErrors) : '',
    counts.noVerdicts ? `${undecidedCount('no_verdict', counts.noVerdicts)} (convy-ci's models failed)` : '',
    counts.userErrors ? `${undecidedCount('user_error', counts.userErrors)} (the simulated user's own mistake, left out)` : '',
    counts.notDecided ? `${undecidedCount('not_decided', counts.notDecided)} (no check, and the judge was not asked; left out)` : '',
  ].filter(Boolean)
  const notPassing = counts.scenarios.filter((s) => s.passed < s.attempts)
  const listed = notPassing.slice(0, LISTED).map((s) => `${neutralise(s.id, 100)} ${s.counted ? fraction(s.passed, s.counted) : undecidedCounts(s).join(' · ')}`)
  if (notPassing.length > LISTED) listed.push(`and ${notPassing.length - LISTED} more`)
  return [
    commentMarker(agent, options.job ?? null),
    `### ${options.noComparison ? '⬜ No baseline · ' : ''}${agentHeading(agent, options.job)}`,
    options.noComparison ? `Nothing to compare with: ${neutralise(options.noComparison, 400)}.` : '',
    // Written by convy-ci itself (what the missing baseline means, how to make one): not neutralised.
    options.advice ?? '',
    `This run: pass rate ${passRateWords({ ...counts, rate: passRate(counts.scenarios) })} over ${plural(counts.scenarios.length, 'scenario')}${errors.length ? ` · ${errors.join(' · ')}` : ''}.`,
    errorList(options.errors ?? []),
    listed.length ? `Not passing every attempt: ${listed.join(', ')}.` : '',
    options.reportUrl ? `[Full report](${options.reportUrl})` : '',
  ]
    .filter(Boolean)
    .join('\n\n')
    .concat('\n')
}

function errorList(errors: readonly ErrorGroup[]): string {
  if (errors.length === 0) return ''
  const { quoted, otherMessages } = quotedErrors(errors)
  const lines = quoted.map((e) => `- ${plural(e.attempts, 'attempt')}, ${ERROR_LABEL[e.verdict]}: ${neutralise(e.message, 200)}`)
  if (otherMessages) lines.push(`- and ${plural(otherMessages, 'other message')}, in the full report`)
  return `Errors, most frequent first:\n\n${lines.join('\n')}`
}
