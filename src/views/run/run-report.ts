import type { Attempt, RunManifest } from '../../records/journal/records.ts'
import { scenarioStatus, tallyRecord, type RunTally, type ScenarioTally } from '../../records/tally/run-tally.ts'
import { DialogueBlocks, type DialogueMode } from './dialogue-blocks.ts'
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
import { trendOf, type History, type Trend } from '../../records/tally/trend.ts'

/**
 * A run's report.html, rendered from its tally: the head of the page once every attempt has been
 * counted, then the dialogues' data blocks, then PAGE_END. Reading the run folder and writing the
 * page is app/pipeline/write-report.ts's.
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

/** The page up to the data blocks, once every attempt has been counted (its end, PAGE_END, follows the blocks). */
export function runReportHead(tally: RunTally, mode: DialogueMode, calibration: Calibration | null, history: History | null): string {
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
  return runReportHead(tally, dialogues.mode, input.calibration ?? null, input.history ?? null) + dialogues.blocks.join('') + PAGE_END
}
