import type { Comparison } from '../../verdict/comparison.ts'
import { stopWords } from '../../verdict/adaptive-summary.ts'
import { count, dollars } from '../page/format.ts'
import { html, type SafeHtml } from '../page/html.ts'

/** An adaptive run (issue 39): each scenario's attempts and why it stopped, and what it saved against the ceiling. */
export function adaptiveCard(c: Pick<Comparison, 'adaptive'>): SafeHtml {
  const a = c.adaptive
  if (!a) return html``
  const saved = savedWords(a.saved)
  return html`<h2>Adaptive attempts</h2><div class="card"><p>${count(a.played)} of ${count(a.ceiling)} attempts played (${a.rule}: ${a.k} first, then up to ${a.maxAttempts} where the comparison was undecided); saved against ${a.maxAttempts} each: ${saved}.</p><ul>${a.scenarios.map((s) => html`<li><b>${s.id}</b>: ${stopWords(s)}</li>`)}</ul></div>`
}

/**
 * What an adaptive run saved against playing every scenario to the ceiling, in words the page and the
 * comment share. A scripted suite calls no model: "about 0 model calls" would read as a fault.
 */
export function savedWords(saved: NonNullable<Comparison['adaptive']>['saved']): string {
  return [
    `${count(saved.attempts)} attempts`,
    ...(saved.modelCalls > 0 ? [`about ${count(saved.modelCalls)} model calls`] : []),
    ...(saved.usd === null ? [] : [`about ${dollars(saved.usd)}`]),
  ].join(', ')
}
