import { mkdir, readdir } from 'node:fs/promises'
import { join, relative, resolve, sep } from 'node:path'
import type { RunState } from '../../records/journal/records.ts'
import { listRuns, readAttempts, readManifest } from '../../records/journal/read-run.ts'
import { REPORT_FILE } from '../../records/journal/run-folder.ts'
import { withIndexLock } from './index-lock.ts'
import { removeOldTemporariesOf, STRAY_TEMPORARY_AGE_MS, writeFileAtomic } from '../../base/shared/atomic-file.ts'
import { errorMessage } from '../../base/shared/errors.ts'
import { passRate, runCounts, type PassCounts } from '../../records/tally/run-counts.ts'
import type { RunTally } from '../../records/tally/run-tally.ts'
import { count, percent, when } from '../page/format.ts'
import { html, type SafeHtml } from '../page/html.ts'
import { footer, pageTop, renderPage } from '../page/page.ts'

/**
 * results/index.html: every run, newest first, each with a link to its report. Counting a run's
 * verdicts streams its attempts, so the index costs little memory however many runs there are.
 */

export interface IndexEntry {
  id: string
  /** The report's address relative to the results folder, already URL-encoded. */
  href: string
  agent: string
  state: RunState
  startedAt: string
  passed: number
  /** Attempts with a verdict. */
  decided: number
  /** Passed, failed or ended by an agent error: the pass rate's denominator. */
  counted: number
  /** The run's pass rate as every surface gives it (records/tally/run-counts.ts); null when nothing counts. */
  rate: number | null
  attempts: number
  expected: number
  errors: number
}

export interface UnreadableRun {
  id: string
  problem: string
}

function hrefFor(resultsDir: string, runDir: string): string {
  return [...relative(resultsDir, runDir).split(sep), REPORT_FILE].map(encodeURIComponent).join('/')
}

async function indexEntry(resultsDir: string, runDir: string, counted: RunTally | undefined): Promise<IndexEntry> {
  // A run just counted brings its run.json as counted, in its end state: not read again.
  const manifest = counted?.manifest ?? (await readManifest(runDir))
  const entry: IndexEntry = {
    id: manifest.id,
    href: hrefFor(resultsDir, runDir),
    agent: manifest.agent.name,
    state: manifest.state,
    startedAt: manifest.startedAt,
    passed: 0,
    decided: 0,
    counted: 0,
    rate: null,
    attempts: 0,
    expected: manifest.scenarios.length * manifest.settings.k,
    errors: 0,
  }
  if (counted) {
    const counts = runCounts(counted)
    const rate = passRate(counts.scenarios)
    return { ...entry, attempts: counts.attempts - counted.replays, decided: counts.judged, counted: counts.counted, rate, passed: counts.passed, errors: counts.attempts - counts.judged }
  }
  const byScenario = new Map<string, PassCounts>()
  for await (const attempt of readAttempts(runDir)) {
    // Replays of user errors are played beyond k: the column says planned attempts "of" k × scenarios.
    if (attempt.replayOf === undefined) entry.attempts++
    if (attempt.verdict === 'passed' || attempt.verdict === 'failed') entry.decided++
    else entry.errors++
    if (attempt.verdict === 'passed') entry.passed++
    if (attempt.verdict === 'passed' || attempt.verdict === 'failed' || attempt.verdict === 'agent_error') {
      entry.counted++
      const scenario = byScenario.get(attempt.scenario) ?? { passed: 0, counted: 0 }
      scenario.counted++
      if (attempt.verdict === 'passed') scenario.passed++
      byScenario.set(attempt.scenario, scenario)
    }
  }
  return { ...entry, rate: passRate([...byScenario.values()]) }
}

/** Newest first by start time; the id (which holds the time too) breaks ties the same way every time. */
export function newestFirst(entries: readonly IndexEntry[]): IndexEntry[] {
  return [...entries].sort((a, b) => Date.parse(b.startedAt) - Date.parse(a.startedAt) || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0))
}

function stateCell(state: RunState): SafeHtml {
  return html`<span class="state-${state}">${state === 'finished' ? 'Finished' : state === 'interrupted' ? 'Interrupted' : 'Running'}</span>`
}

function runRow(e: IndexEntry): SafeHtml {
  const rate = e.rate === null ? '–' : `${percent(e.rate)} · ${count(e.passed)} of ${count(e.counted)}`
  const attempts = e.attempts === e.expected ? count(e.attempts) : `${count(e.attempts)} of ${count(e.expected)}`
  // The agent has its own column, so the link shows the rest of the id: when, and the 4-hex part.
  const name = e.id.startsWith(`${e.agent}/`) ? e.id.slice(e.agent.length + 1) : e.id
  return html`<tr><td><a href="${e.href}" title="${e.id}">${name}</a></td><td>${e.agent}</td><td class="nowrap">${stateCell(e.state)}</td><td class="num">${rate}</td><td class="num">${attempts}${
    e.errors ? html` <span class="muted" title="attempts neither passed nor failed: agent errors, no verdict, user errors, not decided">· ${count(e.errors)} not passed or failed</span>` : ''
  }</td><td class="nowrap">${when(e.startedAt)}</td></tr>`
}

export function renderIndex(entries: readonly IndexEntry[], unreadable: readonly UnreadableRun[] = [], comparisons: readonly string[] = []): string {
  const rows = newestFirst(entries)
  const body = html`${pageTop('convy-ci · results', 'Runs')}<p class="muted">${count(rows.length)} run(s), newest first. Each report is one file that works offline.</p>${
    rows.length === 0
      ? html`<p class="empty card">No runs yet: <code>convy-ci run &lt;agent&gt;</code> records one here.</p>`
      : html`<table class="runs"><thead><tr><th>Run</th><th>Agent</th><th>State</th><th class="num">Pass rate</th><th class="num">Attempts</th><th>Started</th></tr></thead><tbody>${rows.map(
          runRow,
        )}</tbody></table>`
  }${
    unreadable.length
      ? html`<h2>Unreadable runs</h2><ul>${unreadable.map((u) => html`<li><strong>${u.id}</strong>: <span class="text">${u.problem}</span></li>`)}</ul>`
      : ''
  }${
    comparisons.length
      ? html`<h2>Comparisons</h2><ul>${comparisons.map((name) => html`<li><a href="${`compare/${encodeURIComponent(name)}`}">${name.replace(/\.html$/, '')}</a></li>`)}</ul>`
      : ''
  }${footer()}`
  return renderPage('convy-ci runs', body)
}

async function comparePages(resultsDir: string): Promise<string[]> {
  try {
    return (await readdir(join(resultsDir, 'compare'))).filter((name) => name.endsWith('.html')).sort().reverse()
  } catch {
    return []
  }
}

/** A run the caller has just tallied: the index counts it from the tally instead of reading it again. */
export interface CountedRun {
  dir: string
  tally: RunTally
}

/** Writes `<resultsDir>/index.html` and returns its path; the `counted` runs are not read a second time. */
export async function writeIndex(resultsDir: string, counted: readonly CountedRun[] = []): Promise<string> {
  const target = join(resultsDir, 'index.html')
  await mkdir(resultsDir, { recursive: true })
  await withIndexLock(target, () => writeIndexNow(resultsDir, target, counted))
  return target
}

/** Lists, renders and writes the index; called by the holder of the index's lock. */
async function writeIndexNow(resultsDir: string, target: string, counted: readonly CountedRun[]): Promise<void> {
  const entries: IndexEntry[] = []
  const unreadable: UnreadableRun[] = []
  for (const run of await listRuns(resultsDir)) {
    try {
      entries.push(await indexEntry(resultsDir, run.dir, counted.find((c) => resolve(c.dir) === resolve(run.dir))?.tally))
    } catch (error) {
      unreadable.push({ id: run.id, problem: errorMessage(error) })
    }
  }
  await writeFileAtomic(target, renderIndex(entries, unreadable, await comparePages(resultsDir)))
  // Concurrent runs each write the index under their own temporary name; what a killed one left is
  // removed once it is surely nobody's (no index takes an hour to write).
  await removeOldTemporariesOf(target, STRAY_TEMPORARY_AGE_MS)
}
