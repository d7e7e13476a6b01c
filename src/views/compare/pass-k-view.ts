import type { ComparedScenario, Comparison } from '../../verdict/comparison.ts'
import { percent } from '../page/format.ts'
import { html, type SafeHtml } from '../page/html.ts'
import { overallK, passKMeaning, shownK, sideK } from './pass-k.ts'

/** pass^k and pass@k on the compare page: a card under the tiles, and a line in each scenario. */
function passHatHtml(k: number): SafeHtml {
  return html`pass<sup>${k}</sup>`
}

const pct = (v: number | null) => (v === null ? '–' : percent(v))

/** Both runs over the compared scenarios, with what the numbers mean; empty when no k is shown. */
export function passKCard(c: Comparison): SafeHtml {
  const k = shownK(c)
  if (k === null) return html``
  const { before, after } = overallK(c, k)
  return html`<h2>Reliability</h2><div class="card"><div class="reliability"><span class="k">${passHatHtml(k)} <b>${pct(before.hat)}</b> → <b>${pct(after.hat)}</b></span><span class="k">pass@${k} <b>${pct(
    before.at,
  )}</b> → <b>${pct(after.at)}</b></span><span class="muted">${passKMeaning(k)}</span></div></div>`
}

/** A scenario's pass^k and pass@k, before → after. */
export function passKBlock(c: Comparison, s: Pick<ComparedScenario, 'before' | 'after'>): SafeHtml {
  const k = shownK(c)
  if (k === null) return html``
  const [before, after] = [sideK(s.before, k), sideK(s.after, k)]
  return html`<h3>Reliability</h3><div class="reliability"><span class="k">${passHatHtml(k)} <b>${pct(before.hat)}</b> → <b>${pct(after.hat)}</b></span><span class="k">pass@${k} <b>${pct(before.at)}</b> → <b>${pct(
    after.at,
  )}</b></span></div>`
}
