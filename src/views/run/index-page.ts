import type { RunState } from '../../records/journal/records.ts'
import { count, percent, when } from '../page/format.ts'
import { html, type SafeHtml } from '../page/html.ts'
import { footer, pageTop, renderPage } from '../page/page.ts'

/**
 * results/index.html: every run, newest first, each with a link to its report, rendered from entries
 * that app/pipeline/write-index.ts counts from the run folders.
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
