import type { Comparison } from '../../verdict/comparison.ts'
import type { MeasureChange, Measured } from '../../verdict/attempt-measures.ts'
import type { SpeedNoise } from '../../verdict/speed.ts'
import { count, dollars, pEquals, seconds } from '../page/format.ts'
import { html, type SafeHtml } from '../page/html.ts'

/**
 * The "Speed and cost" lines of the comment and the compare page: only what changed beyond noise,
 * overall and per scenario ("refund: answers 3.1 × slower, p = 0.004"; "refund: agent tokens 2.0 ×
 * more per attempt, p = 0.004"). `id` is a scenario's id (from its file: neutralise or escape it),
 * null for the run as a whole. Plain text built from numbers only.
 */
export interface SpeedLine {
  id: string | null
  text: string
}

interface Wording {
  /** What is measured, leading the line. */
  what: string
  higher: string
  lower: string
  /** How a value reads. */
  value: (v: number) => string
  /** What the medians are of. */
  per: string
}

const WORDING: Record<'speed' | 'firstToken' | 'tokens' | 'dollars', Wording> = {
  speed: { what: 'answers', higher: 'slower', lower: 'faster', value: seconds, per: 'per answer' },
  firstToken: { what: 'first tokens', higher: 'slower', lower: 'faster', value: seconds, per: 'to the first token' },
  tokens: { what: 'agent tokens', higher: 'more per attempt', lower: 'fewer per attempt', value: (v) => count(Math.round(v)), per: 'per attempt' },
  dollars: { what: "the agent's dollars", higher: 'more per attempt', lower: 'less per attempt', value: dollars, per: 'per attempt' },
}

function ratioText(change: MeasureChange, wording: Wording): string {
  const ratio = change.ratio!
  return change.change === 'higher' ? `${ratio.toFixed(1)} × ${wording.higher}` : `${(1 / ratio).toFixed(1)} × ${wording.lower}`
}

function medians(change: MeasureChange, wording: Wording): string {
  const m = (v: number | null) => (v === null ? '–' : wording.value(v))
  return `median ${m(change.before.median)} → ${m(change.after.median)}, p90 ${m(change.before.p90)} → ${m(change.after.p90)} ${wording.per}`
}

/**
 * The interval of the ratio on the scale its line speaks: "1.8 × faster" is after/before inverted, so
 * its interval is too, and reads from low to high the same way (the ratio 0.44–0.69 is 1.45–2.27 × faster).
 */
function intervalText(change: MeasureChange, interval: { lower: number; upper: number }): string {
  const [lower, upper] = change.change === 'higher' ? [interval.lower, interval.upper] : [1 / interval.upper, 1 / interval.lower]
  return `${lower.toFixed(2)}–${upper.toFixed(2)}`
}

const pOf = (change: MeasureChange) => pEquals(change.change === 'higher' ? change.pHigher : change.pLower)

function overallLine(measured: Measured, wording: Wording): SpeedLine[] {
  const { overall } = measured
  if (!overall.change) return []
  const interval = overall.interval ? `, 95% CI ${intervalText(overall, overall.interval)} ×` : ''
  return [{ id: null, text: `${wording.what} ${ratioText(overall, wording)} overall (${pOf(overall)}${interval}): ${medians(overall, wording)}` }]
}

function scenarioLines(measured: Measured, wording: Wording): SpeedLine[] {
  return measured.scenarios.map((s) => ({ id: s.id, text: `${wording.what} ${ratioText(s, wording)}, ${pOf(s)} (${medians(s, wording)})` }))
}

/** Overall lines first (speed, time to first token, tokens, dollars), then the scenarios' in the same order. */
export function speedLines(c: Pick<Comparison, 'speed' | 'firstToken' | 'cost'>): SpeedLine[] {
  const measures: [Measured, Wording][] = [[c.speed, WORDING.speed], [c.firstToken, WORDING.firstToken], [c.cost.tokens, WORDING.tokens], [c.cost.dollars, WORDING.dollars]]
  return [...measures.flatMap(([m, w]) => overallLine(m, w)), ...measures.flatMap(([m, w]) => scenarioLines(m, w))]
}

/** How the lines were found, for whoever asks, with what a speed change had to pass beyond the test. */
export function speedMethod(noise: SpeedNoise): string {
  const drift = noise.drift
    ? `nor within the default branch's own drift between runs (×${noise.drift.ratio.toFixed(2)}, what two runs stay within in 99 of 100 by the spread of its last ${noise.drift.runs})`
    : "and drift between whole runs (the machine, the network, the gateway's load) is not accounted for: no history of the default branch was at hand"
  return `Each attempt counts once, by its mean answer time (or time to first token), the agent's tokens or its dollars; the runs are compared on a log scale by a permutation test stratified by scenario, each scenario also alone (Tarone-corrected); changes under ×1.1 are never told, nor answer times that moved less than ${Math.round(noise.minSeconds * 1000)} ms, ${drift}.`
}

/**
 * What a time tile says of its own colour when it comes from scenarios alone (the overall figures
 * did not move beyond noise): "1 scenario slower"; empty otherwise. Numbers only.
 */
export function scenariosAloneNote(measured: Measured): string {
  if (measured.overall.change !== null) return ''
  const told = (change: 'higher' | 'lower') => measured.scenarios.filter((s) => s.change === change).length
  const [slower, faster] = [told('higher'), told('lower')]
  const scenarios = (n: number) => `${n} scenario${n === 1 ? '' : 's'}`
  return [slower > 0 ? `${scenarios(slower)} slower` : '', faster > 0 ? `${scenarios(faster)} faster` : ''].filter(Boolean).join(', ')
}

export function speedCard(c: Pick<Comparison, 'speed' | 'firstToken' | 'cost'>): SafeHtml {
  const lines = speedLines(c)
  if (lines.length === 0) return html``
  return html`<h2>Speed and cost</h2><div class="card"><ul>${lines.map((line) => html`<li>${line.id === null ? '' : html`<b>${line.id}</b>: `}${line.text}</li>`)}</ul><p class="note">${speedMethod(c.speed.noise)}</p></div>`
}
