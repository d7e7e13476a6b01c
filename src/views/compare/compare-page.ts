import { createWriteStream, type WriteStream } from 'node:fs'
import { mkdir, mkdtemp, rename, rm, stat } from 'node:fs/promises'
import { join } from 'node:path'
import type { Comparison, RunInfo } from '../../verdict/comparison.ts'
import { ATTEMPTS_FILE } from '../../records/journal/run-folder.ts'
import { readTally } from '../../records/tally/read-tally.ts'
import { tallyRecord, type RunRecord, type RunTally } from '../../records/tally/run-tally.ts'
import { correctionSentence, overallSentence, sensitivitySentence, standingTitle, verdictReason } from './compare-wording.ts'
import { REPORT_FILE, shortId } from '../../records/journal/run-folder.ts'
import { removeOldTemporariesOf, STRAY_TEMPORARY_AGE_MS, writeFileAtomic } from '../../base/shared/atomic-file.ts'
import { renderCompareTiles } from './compare-tiles.ts'
import { passKCard } from './pass-k-view.ts'
import { speedCard } from './speed-wording.ts'
import { groupCounts, GROUP_LABEL, scenarioGroupParts, type CompareGroup, type CompareSides } from './compare-scenarios.ts'
import { closeStream, DialogueBlocks, DialogueSpool, INLINE_DIALOGUES_MAX_BYTES, writeChunk, type DialogueMode } from '../run/dialogue-blocks.ts'
import { LAZY_DIALOGUES_NOTE } from '../run/dialogue-view.ts'
import { count, when } from '../page/format.ts'
import { html, type SafeHtml } from '../page/html.ts'
import { footer, MAIN_END, PAGE_END, pageStart, pageTop } from '../page/page.ts'
import { historyFileBeside, readHistory, trendOf, type History } from '../../records/tally/trend.ts'
import { calibrationStatus, type Calibration } from '../../records/calibration/calibration.ts'
import type { RunManifest } from '../../records/journal/records.ts'
import { calibrationSentence } from '../page/judge-calibration.ts'
import type { GateResult } from '../../verdict/gate.ts'

/**
 * results/compare/<before>-vs-<after>.html: the verdict and the statistics in words, the tiles
 * before and after with the change, and every scenario grouped Worse, Better, Same or Not compared,
 * opening to both runs' attempts side by side. The Comparison carries the numbers; the two runs'
 * tallies supply what it leaves out on purpose: each attempt's decisions and a slot for its dialogue.
 * From run folders, each run is read once and its dialogues spooled to a file, so memory holds the
 * two tallies but never the attempts.
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

/** `<before>-vs-<after>.html` by the runs' 4-hex parts, as users type them; anything odd in them made `_`. */
export function comparePageName(c: Pick<Comparison, 'before' | 'after'>): string {
  const safe = (id: string) => shortId(id).replace(/[^A-Za-z0-9._-]/g, '_')
  return `${safe(c.before.id)}-vs-${safe(c.after.id)}.html`
}

function chooseMode(runs: ComparePageRuns): DialogueMode {
  let chars = 0
  for (const run of [runs.before, runs.after]) for (const a of run.attempts) for (const t of a.turns) chars += t.text.length
  return chars <= INLINE_DIALOGUES_MAX_BYTES ? 'inline' : 'lazy'
}

async function chooseFolderMode(dirs: { before: string; after: string }): Promise<DialogueMode> {
  const size = async (dir: string) => (await stat(join(dir, ATTEMPTS_FILE)).catch(() => ({ size: 0 }))).size
  return (await size(dirs.before)) + (await size(dirs.after)) <= INLINE_DIALOGUES_MAX_BYTES ? 'inline' : 'lazy'
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
function* pageParts(c: Comparison, sides: CompareSides, mode: DialogueMode, options: ComparePageOptions, gate: PageGate | null): Generator<string> {
  const href = options.reportHref ?? reportHrefFromCompare
  const title = c.before.agent === c.after.agent ? c.after.agent : `${c.before.agent} → ${c.after.agent}`
  yield pageStart(`${standingTitle(c)} · ${title} · convy-ci comparison`)
  yield html`${pageTop('convy-ci · comparison', title)}<div class="runcards">${runCard('Before', c.before, href(c.before.id))}${runCard('After', c.after, href(c.after.id))}</div>${warnings(
    c,
  )}${verdictBlock(c)}${gateLine(gate)}${calibrationNote(options.calibration, sides.after.manifest)}${renderCompareTiles(c)}${passKCard(c)}${speedCard(c)}${mode === 'lazy' ? LAZY_DIALOGUES_NOTE : ''}<h2>Scenarios</h2>${filterBar(c)}`.value
  const { manifest } = sides.after
  const trend = options.history ? trendOf(options.history, { id: manifest.id, agent: manifest.agent.name, startedAt: manifest.startedAt }) : null
  for (const part of scenarioGroupParts(c, { ...sides, trend })) yield part.value
  yield footer().value + MAIN_END
}

/** The page for two runs held in memory (tests, screenshots). */
export function renderComparePage(c: Comparison, runs: ComparePageRuns, options: ComparePageOptions = {}): string {
  const dialogues = new DialogueBlocks(options.dialogues ?? chooseMode(runs))
  const sides = { before: tallyRecord(runs.before, dialogues.slot), after: tallyRecord(runs.after, dialogues.slot) }
  return [...pageParts(c, sides, dialogues.mode, options, options.gate?.(c, sides) ?? null)].join('') + dialogues.blocks.join('') + PAGE_END
}

/** Writes the page of two runs held in memory to `<resultsDir>/compare/<before>-vs-<after>.html` and returns its path. */
export async function writeComparePage(resultsDir: string, c: Comparison, runs: ComparePageRuns, options: ComparePageOptions = {}): Promise<string> {
  const dir = join(resultsDir, 'compare')
  await mkdir(dir, { recursive: true })
  const target = join(dir, comparePageName(c))
  await writeFileAtomic(target, renderComparePage(c, runs, options))
  await removeOldTemporariesOf(target, STRAY_TEMPORARY_AGE_MS)
  return target
}

/**
 * Compares two run folders and writes their page: reads each folder once into its tally, spooling
 * the dialogues to a file beside the page, hands the two tallies to `compare`, then writes the page
 * (through a temporary file and a rename) followed by the spooled dialogues.
 */
export async function compareFoldersToPage(
  resultsDir: string,
  dirs: { before: string; after: string },
  compare: (before: RunTally, after: RunTally) => Comparison,
  options: ComparePageOptions = {},
): Promise<{ comparison: Comparison; path: string; tallies: { before: RunTally; after: RunTally } }> {
  const dir = join(resultsDir, 'compare')
  await mkdir(dir, { recursive: true })
  const scratch = await mkdtemp(join(dir, '.compare-'))
  const spool = new DialogueSpool(options.dialogues ?? (await chooseFolderMode(dirs)), join(scratch, 'dialogues'))
  let page: WriteStream | undefined
  try {
    const sides = { before: await readTally(dirs.before, { dialogue: spool.slot }), after: await readTally(dirs.after, { dialogue: spool.slot }) }
    const comparison = compare(sides.before, sides.after)
    if (options.history === undefined) options = { ...options, history: (await readHistory(historyFileBeside(dirs.after))).history }
    const target = join(dir, comparePageName(comparison))
    const pageFile = join(scratch, 'page.html')
    page = createWriteStream(pageFile)
    const gate = options.gate?.(comparison, sides) ?? null
    for (const part of pageParts(comparison, sides, spool.mode, options, gate)) await writeChunk(page, part)
    await spool.copyTo(page)
    await writeChunk(page, PAGE_END)
    await closeStream(page)
    await rename(pageFile, target)
    return { comparison, path: target, tallies: sides }
  } finally {
    page?.destroy()
    await spool.dispose()
    await rm(scratch, { recursive: true, force: true })
  }
}
