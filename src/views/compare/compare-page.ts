import type { Comparison, RunInfo } from '../../verdict/comparison.ts'
import { tallyRecord, type RunRecord, type RunTally } from '../../records/tally/run-tally.ts'
import { correctionSentence, overallSentence, sensitivitySentence, standingTitle, verdictReason } from './compare-wording.ts'
import { REPORT_FILE } from '../../records/journal/run-folder.ts'
import { renderCompareTiles } from './compare-tiles.ts'
import { passKCard } from './pass-k-view.ts'
import { speedCard } from './speed-wording.ts'
import { adaptiveCard } from './adaptive-card.ts'
import { groupCounts, GROUP_LABEL, scenarioGroupParts, type CompareGroup, type CompareSides } from './compare-scenarios.ts'
import { DialogueBlocks, INLINE_DIALOGUES_MAX_BYTES, type DialogueMode } from '../run/dialogue-blocks.ts'
import { LAZY_DIALOGUES_NOTE } from '../run/dialogue-view.ts'
import { count, when } from '../page/format.ts'
import { html, type SafeHtml } from '../page/html.ts'
import { footer, MAIN_END, PAGE_END, pageStart, pageTop } from '../page/page.ts'
import { trendOf, type History } from '../../records/tally/trend.ts'
import { calibrationStatus, type Calibration } from '../../records/calibration/calibration.ts'
import type { RunManifest } from '../../records/journal/records.ts'
import { calibrationSentence } from '../page/judge-calibration.ts'
import type { GateResult } from '../../verdict/gate.ts'

/**
 * results/compare/<before>-vs-<after>.html: the verdict and the statistics in words, the tiles
 * before and after with the change, and every scenario grouped Worse, Better, Same or Not compared,
 * opening to both runs' attempts side by side. The Comparison carries the numbers; the two runs'
 * tallies supply what it leaves out on purpose: each attempt's decisions and a slot for its dialogue.
 * Writing it, from runs in memory or from run folders, is app/pipeline/write-compare-page.ts's.
 */

export interface ComparePageRuns {
  before: RunRecord
  after: RunRecord
}

export interface ComparePageOptions {
  /** Default: inline when the two runs' dialogues are small, embedded data otherwise. */
  dialogues?: DialogueMode
  /** Where a run's report is, relative to the page; null for no link. Default: beside results/compare/. */
  reportHref?: (runId: string) => string | null
  /** The project's judge calibration, cited when it is of the after run's judge and flagged stale when not. */
  calibration?: Calibration | null
  /** The default branch's last runs, for each scenario's trend. Default: none in memory; from folders, the history file beside the after run. */
  history?: History | null
  /**
   * The gate's one decision (verdict/decide-gate.ts) on this comparison, from the two runs' tallies,
   * shown under the verdict; null or absent: no gate line (the command was not asked to gate).
   */
  gate?: (comparison: Comparison, tallies: { before: RunTally; after: RunTally }) => PageGate | null
}

/** What the gate decided, and how it was asked: `fail-on: worse, fail-on-slower 25%`. */
export interface PageGate {
  asked: string
  result: GateResult
}

/** A run's report seen from results/compare/: `../<agent>/<stamp>/report.html`. */
function reportHrefFromCompare(runId: string): string {
  return ['..', ...runId.split('/').map(encodeURIComponent), REPORT_FILE].join('/')
}

function chooseMode(runs: ComparePageRuns): DialogueMode {
  let chars = 0
  for (const run of [runs.before, runs.after]) for (const a of run.attempts) for (const t of a.turns) chars += t.text.length
  return chars <= INLINE_DIALOGUES_MAX_BYTES ? 'inline' : 'lazy'
}

function runCard(label: string, run: RunInfo, href: string | null): SafeHtml {
  const facts = [
    `${run.agent}${run.agentVersion ? ` ${run.agentVersion}` : ''}`,
    `started ${when(run.startedAt)}`,
    run.state === 'finished' ? '' : run.state,
    `${count(run.scenarios)} scenarios × k ${run.k}, ${count(run.attempts)} attempts`,
    `models: ${run.userModel ?? 'no user model'} · ${run.judgeModel ?? 'no judge'}`,
    [run.branch ? `branch ${run.branch}` : '', run.commit ? `commit ${run.commit.slice(0, 7)}` : '', run.pullRequest !== null ? `PR #${run.pullRequest}` : ''].filter(Boolean).join(' · '),
  ].filter(Boolean)
  return html`<div class="card runcard"><div class="kicker">${label}</div><div class="name">${href ? html`<a href="${href}">${run.id}</a>` : run.id}</div>${facts.map(
    (f) => html`<div class="muted">${f}</div>`,
  )}</div>`
}

function verdictBlock(c: Comparison): SafeHtml {
  const sentences = [overallSentence(c), correctionSentence(c), sensitivitySentence(c)].filter(Boolean)
  return html`<section class="card verdict d-${c.verdict}" aria-label="Verdict"><div class="verdict-h"><span class="badge d-${c.verdict}">${standingTitle(c)}</span><span>${verdictReason(
    c,
  )}</span></div>${sentences.map((s) => html`<p class="note">${s}</p>`)}</section>`
}

function warnings(c: Comparison): SafeHtml {
  if (c.warnings.length === 0) return html``
  const serious = c.warnings.some((w) => w.kind.startsWith('different-') || w.kind === 'edited-scenarios' || w.kind === 'nothing-compared')
  return html`<div class="banner${serious ? ' bad' : ''}" role="alert"><strong>Read with care.</strong><ul>${c.warnings.map((w) => html`<li>${w.message}</li>`)}</ul></div>`
}

function filterBar(c: Comparison): SafeHtml {
  const counts = groupCounts(c)
  const keys = (Object.keys(counts) as CompareGroup[]).filter((k) => counts[k] > 0)
  const total = keys.reduce((n, k) => n + counts[k], 0)
  return html`<div class="filters" data-needs-js hidden><input id="filter-text" type="search" placeholder="Filter scenarios by name" aria-label="Filter scenarios" autocomplete="off"><button type="button" class="chip" data-filter-status="all" aria-pressed="true">All ${count(
    total,
  )}</button>${keys.map((k) => html`<button type="button" class="chip" data-filter-status="${k}" aria-pressed="false">${GROUP_LABEL[k]} ${count(counts[k])}</button>`)}<span id="filter-count" class="muted" aria-live="polite"></span></div>`
}

/** The gate's decision in one line, as `compare` says it on stderr: pass, fail or inconclusive, and why. */
function gateLine(gate: PageGate | null): SafeHtml {
  if (!gate) return html``
  const { outcome, inconclusive, reason } = gate.result
  const word = inconclusive ? `inconclusive (${inconclusive.replace(/-/g, ' ')})` : outcome
  return html`<p class="card gate g-${outcome}" data-gate="${outcome}"><b>Gate (${gate.asked}): ${word}.</b> ${reason}</p>`
}

/** The sentence on the judge's calibration (views/page/judge-calibration.ts), under the verdict. */
function calibrationNote(calibration: Calibration | null | undefined, after: RunManifest): SafeHtml {
  const status = calibrationStatus(calibration ?? null, after)
  const sentence = calibrationSentence(status)
  return sentence ? html`<p class="${status.kind === 'stale' ? 'banner' : 'note'}" data-calibration="${status.kind}">${sentence}</p>` : html``
}

/** The page up to the dialogue blocks, a part at a time (a scenario's row is one part). */
export function* comparePageParts(c: Comparison, sides: CompareSides, mode: DialogueMode, options: ComparePageOptions, gate: PageGate | null): Generator<string> {
  const href = options.reportHref ?? reportHrefFromCompare
  const title = c.before.agent === c.after.agent ? c.after.agent : `${c.before.agent} → ${c.after.agent}`
  yield pageStart(`${standingTitle(c)} · ${title} · convy-ci comparison`)
  yield html`${pageTop('convy-ci · comparison', title)}<div class="runcards">${runCard('Before', c.before, href(c.before.id))}${runCard('After', c.after, href(c.after.id))}</div>${warnings(
    c,
  )}${verdictBlock(c)}${gateLine(gate)}${calibrationNote(options.calibration, sides.after.manifest)}${renderCompareTiles(c)}${passKCard(c)}${speedCard(c)}${adaptiveCard(c)}${mode === 'lazy' ? LAZY_DIALOGUES_NOTE : ''}<h2>Scenarios</h2>${filterBar(c)}`.value
  const { manifest } = sides.after
  const trend = options.history ? trendOf(options.history, { id: manifest.id, agent: manifest.agent.name, startedAt: manifest.startedAt }) : null
  for (const part of scenarioGroupParts(c, { ...sides, trend })) yield part.value
  yield footer().value + MAIN_END
}

/** The page for two runs held in memory (tests, screenshots). */
export function renderComparePage(c: Comparison, runs: ComparePageRuns, options: ComparePageOptions = {}): string {
  const dialogues = new DialogueBlocks(options.dialogues ?? chooseMode(runs))
  const sides = { before: tallyRecord(runs.before, dialogues.slot), after: tallyRecord(runs.after, dialogues.slot) }
  return [...comparePageParts(c, sides, dialogues.mode, options, options.gate?.(c, sides) ?? null)].join('') + dialogues.blocks.join('') + PAGE_END
}
