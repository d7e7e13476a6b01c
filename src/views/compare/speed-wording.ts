import type { Comparison } from '../../verdict/comparison.ts'
import type { SpeedChange } from '../../verdict/speed.ts'
import { pEquals, seconds } from '../page/format.ts'
import { html, type SafeHtml } from '../page/html.ts'

/**
 * The "Speed" lines of the comment and the compare page: only what changed beyond noise, overall and
 * per scenario ("refund: answers 3.1 × slower, p = 0.004"). `id` is a scenario's id (from its file:
 * neutralise or escape it), null for the run as a whole.
 */
export interface SpeedLine {
  id: string | null
  text: string
}

function ratioText(change: SpeedChange): string {
  const ratio = change.ratio!
  return change.change === 'slower' ? `${ratio.toFixed(1)} × slower` : `${(1 / ratio).toFixed(1)} × faster`
}

function medians(change: SpeedChange): string {
  const m = (v: number | null) => (v === null ? '–' : seconds(v))
  return `median ${m(change.before.median)} → ${m(change.after.median)}, p90 ${m(change.before.p90)} → ${m(change.after.p90)} per answer`
}

export function speedLines(c: Pick<Comparison, 'speed'>): SpeedLine[] {
  const { overall, scenarios } = c.speed
  const lines: SpeedLine[] = []
  if (overall.change) {
    const p = overall.change === 'slower' ? overall.pSlower : overall.pFaster
    const interval = overall.interval ? `, 95% CI ${overall.interval.lower.toFixed(2)}–${overall.interval.upper.toFixed(2)} ×` : ''
    lines.push({ id: null, text: `answers ${ratioText(overall)} overall (${pEquals(p)}${interval}): ${medians(overall)}` })
  }
  for (const s of scenarios) lines.push({ id: s.id, text: `answers ${ratioText(s)}, ${pEquals(s.change === 'slower' ? s.pSlower : s.pFaster)} (${medians(s)})` })
  return lines
}

/** One sentence on how the lines were found, for whoever asks. */
export const SPEED_METHOD =
  'Each attempt counts once, by its mean answer time; the runs are compared on a log scale by a permutation test stratified by scenario, each scenario also alone (Tarone-corrected); changes under ×1.1 are never told.'

export function speedCard(c: Pick<Comparison, 'speed'>): SafeHtml {
  const lines = speedLines(c)
  if (lines.length === 0) return html``
  return html`<h2>Speed</h2><div class="card"><ul>${lines.map((line) => html`<li>${line.id === null ? '' : html`<b>${line.id}</b>: `}${line.text}</li>`)}</ul><p class="note">${SPEED_METHOD}</p></div>`
}
