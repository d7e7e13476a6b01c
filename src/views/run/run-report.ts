import { createWriteStream, type WriteStream } from 'node:fs'
import { rename, rm, stat } from 'node:fs/promises'
import { join } from 'node:path'
import type { Attempt, RunManifest } from '../../records/journal/records.ts'
import { ATTEMPTS_FILE, REPORT_FILE } from '../../records/journal/run-folder.ts'
import { temporaryPath } from '../../base/shared/atomic-file.ts'
import { readTally } from '../../records/tally/read-tally.ts'
import { scenarioStatus, tallyRecord, type RunTally, type ScenarioTally } from '../../records/tally/run-tally.ts'
import { closeStream, DialogueBlocks, DialogueSpool, INLINE_DIALOGUES_MAX_BYTES, writeChunk, type DialogueMode } from './dialogue-blocks.ts'
import { LAZY_DIALOGUES_NOTE } from './dialogue-view.ts'
import { labelsBar } from './decisions-view.ts'
import { calibrationStatus, type Calibration } from '../../records/calibration/calibration.ts'
import { calibrationSentence } from '../page/judge-calibration.ts'
import { renderErrorBanner } from './error-banner.ts'
import { count, percent } from '../page/format.ts'
import { html, type SafeHtml } from '../page/html.ts'
import { STATUS_LABEL, STATUS_ORDER } from '../page/labels.ts'
import { footer, MAIN_END, PAGE_END, pageStart } from '../page/page.ts'
import { runFigures, type RunFigures } from './run-figures.ts'
import { renderRunHeader } from './run-header.ts'
import { renderScenario, SCENARIO_LIST_HEAD } from './scenario-view.ts'
import { renderReliability, renderTiles, runTiles } from './tiles-view.ts'
import { historyFileBeside, readHistory, trendOf, type History, type Trend } from '../../records/tally/trend.ts'

/**
 * A run's report.html. Attempts are read once, in the order they ended: each one updates the tally
 * (counts and decisions, kept for the summary) and, in a large run, leaves its dialogue as a data
 * block spooled to a file. The page itself is written once the tally is complete, followed by those
 * blocks, so memory holds the summary but never the whole run.
 */

export interface RunReportInput {
  manifest: RunManifest
  attempts: Iterable<Attempt>
  /** Default: inline. */
  dialogues?: DialogueMode
  /** Lines of attempts.jsonl that could not be read, to say so on the page. */
  skippedLines?: number
  /** The project's judge calibration: cited when it is of this run's judge, flagged stale when not. */
  calibration?: Calibration | null
  /** The default branch's last runs, for each scenario's trend; default none. */
  history?: History | null
}

/** The page up to the data blocks, once every attempt has been counted. */
function pageHead(tally: RunTally, mode: DialogueMode, calibration: Calibration | null, history: History | null): string {
  const figures = runFigures(tally)
  const { manifest } = tally
  const trend = history ? trendOf(history, { id: manifest.id, agent: manifest.agent.name, startedAt: manifest.startedAt }) : null
  return pageStart(`${tally.manifest.agent.name} · ${percent(figures.passRate)} · convy-ci report`) + renderRunBody(tally, figures, tally.skippedLines, mode, calibration, trend).value + MAIN_END
}

/** The sentence on the judge's calibration (views/page/judge-calibration.ts), under the tiles. */
function calibrationNote(calibration: Calibration | null, manifest: RunTally['manifest']): SafeHtml {
  const status = calibrationStatus(calibration, manifest)
  const sentence = calibrationSentence(status)
  return sentence ? html`<p class="${status.kind === 'stale' ? 'banner' : 'note'}" data-calibration="${status.kind}">${sentence}</p>` : html``
}

function filterBar(f: RunFigures): SafeHtml {
  const chips = STATUS_ORDER.filter((s) => f.statusCounts[s] > 0).map(
    (s) => html`<button type="button" class="chip" data-filter-status="${s}" aria-pressed="false">${STATUS_LABEL[s]} ${count(f.statusCounts[s])}</button>`,
  )
  return html`<div class="filters" data-needs-js hidden><input id="filter-text" type="search" placeholder="Filter by name, file or tag; globs too: refund-*" aria-label="Filter scenarios" autocomplete="off"><button type="button" class="chip" data-filter-status="all" aria-pressed="true">All ${count(
    f.scenarios,
  )}</button>${chips}<span id="filter-count" class="muted" aria-live="polite"></span></div>`
}

function orderedScenarios(tally: RunTally): ScenarioTally[] {
  const played = [...tally.scenarios.values()].filter((s) => s.attempts.length > 0)
  const rank = (s: ScenarioTally) => STATUS_ORDER.indexOf(scenarioStatus(s))
  return played.map((s, index) => ({ s, index })).sort((a, b) => rank(a.s) - rank(b.s) || a.index - b.index).map(({ s }) => s)
}

function renderRunBody(tally: RunTally, figures: RunFigures, skippedLines: number, mode: DialogueMode, calibration: Calibration | null, trend: Trend | null): SafeHtml {
  const scenarios = orderedScenarios(tally)
  const unplayed = tally.manifest.scenarios.length - [...tally.scenarios.values()].filter((s) => s.scenario && s.attempts.length > 0).length
  return html`${renderRunHeader(tally.manifest, { planned: tally.attempts - tally.replays, replays: tally.replays }, skippedLines)}${renderTiles(runTiles(figures))}${calibrationNote(calibration, tally.manifest)}${renderErrorBanner(tally)}${renderReliability(figures)}<h2>Scenarios</h2>${mode === 'lazy' ? LAZY_DIALOGUES_NOTE : ''}${filterBar(
    figures,
  )}${tally.manifest.scenarios.some((s) => s.judge.length > 0) ? labelsBar(tally.manifest.id) : ''}<div class="list">${SCENARIO_LIST_HEAD}${scenarios.length ? scenarios.map((s) => renderScenario(s, trend)) : html`<p class="empty">No attempt has been recorded yet.</p>`}</div>${
    unplayed > 0 ? html`<p class="note">${count(unplayed)} scenario(s) of this run have no recorded attempt yet.</p>` : ''
  }${footer()}`
}

export function renderRunReport(input: RunReportInput): string {
  const dialogues = new DialogueBlocks(input.dialogues ?? 'inline')
  const tally = tallyRecord({ manifest: input.manifest, attempts: [...input.attempts] }, dialogues.slot)
  tally.skippedLines = input.skippedLines ?? 0
  return pageHead(tally, dialogues.mode, input.calibration ?? null, input.history ?? null) + dialogues.blocks.join('') + PAGE_END
}

async function chooseMode(runDir: string): Promise<DialogueMode> {
  try {
    return (await stat(join(runDir, ATTEMPTS_FILE))).size <= INLINE_DIALOGUES_MAX_BYTES ? 'inline' : 'lazy'
  } catch {
    return 'inline'
  }
}

/**
 * Writes `<runDir>/report.html` (through a temporary file and a rename, so a reader never sees half a
 * page) and returns its path. Works on finished, interrupted and running runs alike.
 */
export interface WriteReportOptions {
  dialogues?: DialogueMode
  /** The run as the page should show it; default: its run.json. A run being ended shows its end state. */
  manifest?: RunManifest
  /** Every line of attempts.jsonl was written by this process: see readAttempts. */
  ownLines?: boolean
  /** The project's judge calibration, as RunReportInput's. */
  calibration?: Calibration | null
}

export async function writeRunReport(runDir: string, options: WriteReportOptions = {}): Promise<string> {
  return (await writeRunReportAndTally(runDir, options)).path
}

/** The same, with the run's tally that the page was made from: a caller that also summarises or compares the run reads attempts.jsonl once. */
export async function writeRunReportAndTally(runDir: string, options: WriteReportOptions = {}): Promise<{ path: string; tally: RunTally }> {
  const target = join(runDir, REPORT_FILE)
  // Names of this writer's own: a killed writer's leftovers are removed by the next one to lock the run.
  const pageFile = temporaryPath(target)
  const spool = new DialogueSpool(options.dialogues ?? (await chooseMode(runDir)), temporaryPath(`${target}.data`))
  let page: WriteStream | undefined
  try {
    const tally = await readTally(runDir, { dialogue: spool.slot, manifest: options.manifest, ownLines: options.ownLines })
    // The default branch's trend, when the action or `convy-ci baseline --history` left one beside the runs.
    const { history } = await readHistory(historyFileBeside(runDir))
    page = createWriteStream(pageFile)
    await writeChunk(page, pageHead(tally, spool.mode, options.calibration ?? null, history))
    await spool.copyTo(page)
    await writeChunk(page, PAGE_END)
    await closeStream(page)
    await rename(pageFile, target)
    return { path: target, tally }
  } finally {
    page?.destroy()
    await spool.dispose()
    await rm(pageFile, { force: true })
  }
}
