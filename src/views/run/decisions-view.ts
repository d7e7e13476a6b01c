import type { CheckResult, ClaimResult } from '../../records/journal/records.ts'
import { capped } from '../page/format.ts'
import { html, type SafeHtml } from '../page/html.ts'

/**
 * An attempt's decisions: each claim the judge decided and each check, with its reason. Like a turn,
 * a decision has one shape whether it is written as HTML or embedded as data for the page script.
 *
 * [held, check kind ('' for a claim), claim or check value, reason]
 */
export type DecisionRow = [held: boolean, kind: string, text: string, reason: string]

export function decisionRows(claims: readonly ClaimResult[], checks: readonly CheckResult[]): DecisionRow[] {
  return [
    ...claims.map((c): DecisionRow => [c.pass, '', capped(c.claim, 1_000), `${capped(c.reason)}${votesText(c)}`]),
    ...checks.map((c): DecisionRow => [c.pass, c.kind, capped(c.value, 1_000), capped(c.detail)]),
  ]
}

function mark(held: boolean): SafeHtml {
  return held ? html`<span class="mark ok" role="img" aria-label="held">✓</span>` : html`<span class="mark no" role="img" aria-label="did not hold">✗</span>`
}

/**
 * Flat markup (one line per decision): a large run has tens of thousands of these. A claim's <li>
 * carries its 1-based number in the scenario (claims come first, in order), for the page script's
 * labels; checks are convy-ci's own and are not labelled.
 */
export function decisionsMarkup(rows: readonly DecisionRow[]): SafeHtml {
  if (rows.length === 0) return html``
  let claim = 0
  return html`<ul class="decisions">${rows.map(
    ([held, kind, text, reason]) =>
      html`<li${kind ? '' : html` data-claim="${++claim}"`}>${mark(held)}<span class="text">${kind ? html`<code>${kind}</code> <span class="mono">${text}</span>` : text}<span class="reason">${reason}</span></span></li>`,
  )}</ul>`
}

/**
 * The labelling bar of a run's report, shown by the page script (label-script.ts): each claim decision
 * can then be marked right or wrong, and the labels downloaded as labels.jsonl for `convy-ci
 * judge-check`. Without JavaScript it stays hidden and the decisions read as always.
 */
export function labelsBar(runId: string): SafeHtml {
  return html`<div class="labels-bar" id="labels" data-run="${runId}" data-needs-js hidden><span><strong>Check the judge.</strong> Mark claim decisions “Right” or “Wrong”, then download the labels for <code>convy-ci judge-check</code>.</span> <span id="labels-count" class="muted" aria-live="polite"></span> <button type="button" class="chip" id="labels-download" disabled>Download labels</button> <button type="button" class="chip" id="labels-clear">Clear</button></div>`
}

/** " (judge votes: 2 of 3 held)", when the claim was judged by several samples. */
function votesText(claim: ClaimResult): string {
  if (!claim.votes || claim.votes.length < 2) return ''
  return ` (judge votes: ${claim.votes.filter(Boolean).length} of ${claim.votes.length} held)`
}
