import { once } from 'node:events'
import { createReadStream, createWriteStream, type WriteStream } from 'node:fs'
import { rename, rm, stat } from 'node:fs/promises'
import { join } from 'node:path'
import type { Attempt, RunManifest } from '../journal/records.ts'
import { readAttempts, readManifest } from '../journal/read-run.ts'
import { ATTEMPTS_FILE, REPORT_FILE } from '../journal/run-folder.ts'
import { temporaryPath } from '../shared/atomic-file.ts'
import { dialogueMarkup, embedAttempt, LAZY_DIALOGUES_NOTE } from './dialogue-view.ts'
import { count, percent } from './format.ts'
import { html, type SafeHtml } from './html.ts'
import { STATUS_LABEL, STATUS_ORDER } from './labels.ts'
import { footer, MAIN_END, PAGE_END, pageStart } from './page.ts'
import { runFigures, type RunFigures } from './run-figures.ts'
import { renderRunHeader } from './run-header.ts'
import { addAttempt, finishTally, scenarioStatus, startTally, type RunTally, type ScenarioTally } from './run-tally.ts'
import { renderScenario, SCENARIO_LIST_HEAD } from './scenario-view.ts'
import { renderReliability, renderTiles, runTiles } from './tiles-view.ts'

/**
 * A run's report.html. Attempts are read once, in the order they ended: each one updates the tally
 * (counts and decisions, kept for the summary) and, in a large run, leaves its dialogue as a data
 * block written straight out. The page itself is written once the tally is complete, followed by
 * those blocks, so memory holds the summary but never the whole run.
 */

/** 'inline': dialogues as HTML, readable with JavaScript off. 'lazy': embedded data the page draws. */
export type DialogueMode = 'inline' | 'lazy'

/** Up to this much attempts.jsonl, dialogues are written as HTML; past it the page would get slow. */
export const INLINE_DIALOGUES_MAX_BYTES = 3_000_000

export interface RunReportInput {
  manifest: RunManifest
  attempts: Iterable<Attempt>
  /** Default: inline. */
  dialogues?: DialogueMode
  /** Lines of attempts.jsonl that could not be read, to say so on the page. */
  skippedLines?: number
}

interface ReportBuilder {
  /** Adds one attempt; returns the data block it leaves for the end of the page ('' when inline). */
  add(attempt: Attempt): string
  /** The page up to the data blocks, once every attempt has been added. */
  head(skippedLines: number): string
  /** Every attempt added so far, counted. */
  readonly tally: RunTally
}

function reportBuilder(manifest: RunManifest, mode: DialogueMode): ReportBuilder {
  const tally = startTally(manifest)
  let blocks = 0
  return {
    tally,
    add(attempt) {
      if (mode === 'inline') {
        addAttempt(tally, attempt, { kind: 'inline', markup: dialogueMarkup(attempt.turns).value })
        return ''
      }
      const { slot, block } = embedAttempt(`d-${blocks++}`, attempt)
      addAttempt(tally, attempt, slot)
      return block
    },
    head(skippedLines) {
      finishTally(tally)
      const figures = runFigures(tally)
      return pageStart(`${manifest.agent.name} · ${percent(figures.passRate)} · convy-ci report`) + renderRunBody(tally, figures, skippedLines, mode).value + MAIN_END
    },
  }
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
  const rank = (s: ScenarioTally) => STATUS_ORDER.indexOf(scenarioStatus(s.passed, s.failed))
  return played.map((s, index) => ({ s, index })).sort((a, b) => rank(a.s) - rank(b.s) || a.index - b.index).map(({ s }) => s)
}

function renderRunBody(tally: RunTally, figures: RunFigures, skippedLines: number, mode: DialogueMode): SafeHtml {
  const scenarios = orderedScenarios(tally)
  const unplayed = tally.manifest.scenarios.length - [...tally.scenarios.values()].filter((s) => s.scenario && s.attempts.length > 0).length
  return html`${renderRunHeader(tally.manifest, tally.attempts, skippedLines)}${renderTiles(runTiles(figures))}${renderReliability(figures)}<h2>Scenarios</h2>${mode === 'lazy' ? LAZY_DIALOGUES_NOTE : ''}${filterBar(
    figures,
  )}<div class="list">${SCENARIO_LIST_HEAD}${scenarios.length ? scenarios.map(renderScenario) : html`<p class="empty">No attempt has been recorded yet.</p>`}</div>${
    unplayed > 0 ? html`<p class="note">${count(unplayed)} scenario(s) of this run have no recorded attempt yet.</p>` : ''
  }${footer()}`
}

export function renderRunReport(input: RunReportInput): string {
  const builder = reportBuilder(input.manifest, input.dialogues ?? 'inline')
  const blocks: string[] = []
  for (const attempt of input.attempts) {
    const block = builder.add(attempt)
    if (block) blocks.push(block)
  }
  return builder.head(input.skippedLines ?? 0) + blocks.join('') + PAGE_END
}

async function writeChunk(stream: WriteStream, chunk: string | Buffer): Promise<void> {
  if (!stream.write(chunk)) await once(stream, 'drain')
}

async function closeStream(stream: WriteStream): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    stream.once('error', reject)
    stream.end(resolve)
  })
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
}

export async function writeRunReport(runDir: string, options: WriteReportOptions = {}): Promise<string> {
  return (await writeRunReportAndTally(runDir, options)).path
}

/** The same, with the run's tally that the page was made from: a caller that also summarises the run reads attempts.jsonl once. */
export async function writeRunReportAndTally(runDir: string, options: WriteReportOptions = {}): Promise<{ path: string; tally: RunTally }> {
  const manifest = options.manifest ?? (await readManifest(runDir))
  const mode = options.dialogues ?? (await chooseMode(runDir))
  const builder = reportBuilder(manifest, mode)
  const target = join(runDir, REPORT_FILE)
  // Names of this writer's own: a killed writer's leftovers are removed by the next one to lock the run.
  const dataFile = temporaryPath(`${target}.data`)
  const pageFile = temporaryPath(target)
  const data = createWriteStream(dataFile)
  let page: WriteStream | undefined
  let skipped = 0
  // Blocks are small; writing them a megabyte at a time keeps the disk from setting the pace.
  let pending: string[] = []
  let pendingLength = 0
  try {
    for await (const attempt of readAttempts(runDir, () => skipped++)) {
      const block = builder.add(attempt)
      pending.push(block)
      pendingLength += block.length
      if (pendingLength >= 1 << 20) {
        await writeChunk(data, pending.join(''))
        pending = []
        pendingLength = 0
      }
    }
    await writeChunk(data, pending.join(''))
    await closeStream(data)
    page = createWriteStream(pageFile)
    await writeChunk(page, builder.head(skipped))
    for await (const chunk of createReadStream(dataFile)) await writeChunk(page, chunk as Buffer)
    await writeChunk(page, PAGE_END)
    await closeStream(page)
    await rename(pageFile, target)
  } finally {
    data.destroy()
    page?.destroy()
    await rm(dataFile, { force: true })
    await rm(pageFile, { force: true })
  }
  return { path: target, tally: builder.tally }
}
