import type { ComparedScenario, Comparison, RunInfo } from '../../verdict/comparison.ts'
import { standing, type Standing } from '../../verdict/standing.ts'
import { count } from '../page/format.ts'
import { stopWords } from '../../verdict/adaptive-summary.ts'
import { savedWords } from '../compare/adaptive-card.ts'
import { fitSections, table, type Section } from './markdown-fit.ts'
import {
  CHANGED_HEADER, changedRow, NOT_COMPARED_HEADER, notComparedRow, SAME_HEADER, sameRow, scenarioId, tileRows,
} from './compare-markdown-rows.ts'
import { neutralise } from './neutralise.ts'
import { correctionSentence, gateLead, overallSentence, scenarioNotes, sensitivitySentence, standingTitle, verdictReason } from '../compare/compare-wording.ts'
import { scenarioChangeLines } from './scenario-change-lines.ts'
import { passKLine, passKRows, toolNotes, withPassKColumn, withToolUse } from './tool-use-markdown.ts'
import { toolChangesOf } from '../compare/tool-use-wording.ts'
import { speedSection } from './speed-markdown.ts'
import type { Trend } from '../../records/tally/trend.ts'
import { trendLine, withTrendLine } from './trend-markdown.ts'

/** GitHub refuses comments over 65,536 characters; stay well under, whatever the run's size. */
export const MARKDOWN_LIMIT = 60_000

export interface MarkdownOptions {
  /** Where the full report is; linked at the end and wherever a list had to be cut. */
  reportUrl?: string | null
  /** The publishing job, when several publish one agent (github/artifact-names.ts: publishingJob). */
  job?: string | null
  /** Default MARKDOWN_LIMIT. The parts never cut (verdict, tiles, notes, statistics, warnings) take up to about 6,000. */
  maxLength?: number
  /** The default branch's last runs: a trend line beside each Worse and Better scenario (trend-markdown.ts). */
  trend?: Trend | null
}

/**
 * The hidden first line that lets the action find and update its own comment for this agent and
 * job (github/artifact-names.ts: publishingJob); a job of its own gets a comment of its own.
 */
export function commentMarker(agent: string, job: string | null = null): string {
  return `<!-- convy-ci:${encodeURIComponent(agent)}${job ? `@${encodeURIComponent(job)}` : ''} -->`
}

/** The agent as a heading names it, with its job when it has one. */
export function agentHeading(agent: string, job: string | null | undefined): string {
  return `${neutralise(agent, 60)}${job ? ` (${neutralise(job, 60)})` : ''}`
}

const MARK: Record<Standing, string> = { worse: '🟥', better: '🟩', 'within-noise': '⬜ ~', 'judge-changed': '⚠️', 'evidence-missing': '🟧', 'judge-unstable': '⚖️', 'cannot-tell': '⬜ ?' }
const NOTES_SHOWN = 10

/**
 * The PR comment and job summary, in the order a reviewer reads it: the verdict and why, the full
 * report's link and the runs, the tiles that say something, Worse then Better (each row linked to
 * its scenario in the report, naming the claims that moved), what deserves a look, then folded: Same,
 * Not compared and the statistics in words; warnings last, except more agent errors, which come under
 * the verdict with the agent's own words (an agent that did not come up is the whole story). Long
 * lists are cut to fit, Worse last of all, each saying how many scenarios it left out.
 */
export function comparisonMarkdown(c: Comparison, options: MarkdownOptions = {}): string {
  const reportUrl = safeUrl(options.reportUrl)
  const top = [
    commentMarker(c.after.agent, options.job ?? null),
    // The title is built from numbers only; the judge change may quote model names, so it is neutralised apart.
    `### ${MARK[standing(c)]} ${standingTitle(c)} · ${agentHeading(c.after.agent, options.job)}`,
    // The gate's lead names scenarios and may quote model names: neutralised; the rest is built from numbers.
    [neutralise(gateLead(c) ?? '', 1_500), verdictReason(c, { lead: false })].filter(Boolean).join(' '),
    scenarioChangeLines(c),
    warningLines(c.warnings.filter((w) => w.kind === 'more-agent-errors')),
    [reportUrl ? `**[Full report](${reportUrl})**` : '', `Before: ${runLabel(c.before)} · After: ${runLabel(c.after)}`].filter(Boolean).join(' · '),
    table([...tileRows(c), ...passKRows(c)]),
    passKLine(c),
  ]
  const notes = [notesSection(c), speedSection(c), adaptiveSection(c)].filter(Boolean).join('\n\n')
  const bottom = [statisticsSection(c), warningsSection(c)]
  const fixed = [...top, notes, ...bottom].reduce((sum, part) => sum + part.length + 2, 0)
  // A judge-unstable scenario is said once, under Worth a look, not again under Same.
  const inNotes = new Set(notedScenarios(c).slice(0, NOTES_SHOWN).filter((s) => s.judgeUnstable !== null).map((s) => s.id))
  const same = c.scenarios.same.filter((s) => !inNotes.has(s.id))
  // Each scenario's tool-use changes join what moved with it, and a pass^k column comes before that.
  const scenarioTable = (header: readonly string[], list: readonly ComparedScenario[], toRow: (s: ComparedScenario) => string[]) =>
    withPassKColumn(c, header, list, list.map((s) => withToolUse(toRow(s), toolChangesOf(c, s.id))))
  const sections: Section[] = [
    { title: `#### 🟥 Worse (${count(c.scenarios.worse.length)})`, ...scenarioTable(CHANGED_HEADER, c.scenarios.worse, (s) => withTrendLine(changedRow(s, 'worse', reportUrl), trendLine(options.trend, s))), folded: false },
    { title: `#### 🟩 Better (${count(c.scenarios.better.length)})`, ...scenarioTable(CHANGED_HEADER, c.scenarios.better, (s) => withTrendLine(changedRow(s, 'better', reportUrl), trendLine(options.trend, s))), folded: false },
    { title: `~ Same, within noise (${count(same.length)})`, ...scenarioTable(SAME_HEADER, same, sameRow), folded: true },
    { title: `Not compared (${count(c.scenarios.notCompared.length)})`, header: NOT_COMPARED_HEADER, rows: c.scenarios.notCompared.map(notComparedRow), folded: true },
  ].filter((section) => section.rows.length > 0)
  const fitted = fitSections(sections, (options.maxLength ?? MARKDOWN_LIMIT) - fixed, reportUrl)
  const open = fitted.filter((_, index) => !sections[index]!.folded)
  const folded = fitted.filter((_, index) => sections[index]!.folded)
  return [...top, ...open, notes, ...folded, ...bottom].filter(Boolean).join('\n\n') + '\n'
}

/** An adaptive run: how many attempts each scenario got and why it stopped, and what that saved (issue 39). */
function adaptiveSection(c: Comparison): string {
  const a = c.adaptive
  if (!a) return ''
  const saved = savedWords(a.saved)
  const lines = a.scenarios.map((s) => `- ${scenarioId(s.id)}: ${stopWords(s)}`)
  return `<details><summary>Adaptive attempts: ${count(a.played)} of ${count(a.ceiling)} played (${neutralise(a.rule, 40)}, ${a.k} then up to ${a.maxAttempts}); saved against ${a.maxAttempts} each: ${saved}</summary>\n\n${lines.join('\n')}\n\n</details>`
}

function notedScenarios(c: Comparison, tools: ReadonlyMap<string, unknown> = toolNotes(c, c.scenarios.same)): Comparison['scenarios']['same'] {
  return c.scenarios.same.filter((s) => s.possible !== null || s.moreWithoutVerdict !== null || s.judgeUnstable !== null || tools.has(s.id))
}

function notesSection(c: Comparison): string {
  const tools = toolNotes(c, c.scenarios.same)
  const noted = notedScenarios(c, tools)
  if (noted.length === 0) return ''
  const lines = noted.slice(0, NOTES_SHOWN).map((s) => `- ${scenarioId(s.id)}: ${[...scenarioNotes(s), ...(tools.get(s.id) ?? [])].join('; ')}`)
  if (noted.length > NOTES_SHOWN) lines.push(`- …and ${noted.length - NOTES_SHOWN} more, in Same below`)
  return `**Worth a look**\n\n${lines.join('\n')}`
}

/** Folded: the verdict line already says what they come to; the tests and the sensitivity are for whoever asks. */
function statisticsSection(c: Comparison): string {
  const sentences = [overallSentence(c), correctionSentence(c), sensitivitySentence(c)].filter(Boolean)
  return `<details><summary>Statistics</summary>\n\n${sentences.join(' ')}\n\n</details>`
}

function warningsSection(c: Comparison): string {
  return warningLines(c.warnings.filter((w) => w.kind !== 'more-agent-errors'))
}

function warningLines(warnings: Comparison['warnings']): string {
  return warnings.map((w) => `> ⚠️ ${neutralise(w.message, 300)}`).join('\n>\n')
}

function runLabel(run: RunInfo): string {
  const details = [
    run.pullRequest !== null ? `PR #${run.pullRequest}` : null,
    run.branch ? `branch ${neutralise(run.branch, 60)}` : null,
    run.commit ? `commit ${neutralise(run.commit.slice(0, 7), 7)}` : null,
  ].filter(Boolean)
  return `${neutralise(run.id, 100)}${details.length ? ` (${details.join(', ')})` : ''}`
}

/** Only an http(s) address, with the characters that could end a markdown link destination encoded. */
function safeUrl(url: string | null | undefined): string | null {
  if (!url || url.length > 2000) return null
  try {
    const parsed = new URL(url)
    if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return null
    return parsed.href.replace(/[()<> ]/g, (character) => `%${character.charCodeAt(0).toString(16).toUpperCase()}`)
  } catch {
    return null
  }
}
