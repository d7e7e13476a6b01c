import type { Comparison } from '../../verdict/comparison.ts'
import { stopWords } from '../../verdict/adaptive-summary.ts'
import { count, dollars } from '../page/format.ts'
import { html, type SafeHtml } from '../page/html.ts'

/** An adaptive run (issue 39): each scenario's attempts and why it stopped, and what it saved against the ceiling. */
export function adaptiveCard(c: Pick<Comparison, 'adaptive'>): SafeHtml {
  const a = c.adaptive
  if (!a) return html``
  const saved = [`${count(a.saved.attempts)} attempts`, `about ${count(a.saved.modelCalls)} model calls`, ...(a.saved.usd === null ? [] : [`about ${dollars(a.saved.usd)}`])].join(', ')
  return html`<h2>Adaptive attempts</h2><div class="card"><p>${count(a.played)} of ${count(a.ceiling)} attempts played (${a.rule}: ${a.k} first, then up to ${a.maxAttempts} where the comparison was undecided); saved against ${a.maxAttempts} each: ${saved}.</p><ul>${a.scenarios.map((s) => html`<li><b>${s.id}</b>: ${stopWords(s)}</li>`)}</ul></div>`
}
