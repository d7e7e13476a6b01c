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

/** Flat markup (one line per decision): a large run has tens of thousands of these. */
export function decisionsMarkup(rows: readonly DecisionRow[]): SafeHtml {
  if (rows.length === 0) return html``
  return html`<ul class="decisions">${rows.map(
    ([held, kind, text, reason]) =>
      html`<li>${mark(held)}<span class="text">${kind ? html`<code>${kind}</code> <span class="mono">${text}</span>` : text}<span class="reason">${reason}</span></span></li>`,
  )}</ul>`
}

/** " (judge votes: 2 of 3 held)", when the claim was judged by several samples. */
function votesText(claim: ClaimResult): string {
  if (!claim.votes || claim.votes.length < 2) return ''
  return ` (judge votes: ${claim.votes.filter(Boolean).length} of ${claim.votes.length} held)`
}
