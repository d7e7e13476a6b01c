import type { ScenarioTrend, Trend, TrendPoint } from '../../records/tally/trend.ts'
import { fraction, percent, percentRange, plural } from './format.ts'
import { html, trusted, type SafeHtml } from './html.ts'

/**
 * A scenario's trend on the default branch, in words (the comment, the pages) and as a sparkline
 * (report.html, the compare page): inline SVG drawn with attributes only, no script and no inline
 * style, so it shows under the pages' Content-Security-Policy and with JavaScript off.
 */

/** This run's result for a scenario: the sparkline's last, marked point and the comment's "now". */
export interface TrendNow {
  passed: number
  judged: number
}

/** The branch as the words name it: main, or "the default branch" when it is not known. */
export function branchName(trend: Pick<Trend, 'branch'>): string {
  return trend.branch ?? 'the default branch'
}

/** "10 runs at 100%", "60–100% over 10 runs"; null when no run of the history decided it. */
export function rangeWords(t: ScenarioTrend): string | null {
  if (t.runs === 0 || t.low === null || t.high === null) return null
  return t.low === t.high ? `${plural(t.runs, 'run')} at ${percent(t.low)}` : `${percentRange(t.low, t.high)} over ${plural(t.runs, 'run')}`
}

/** "flaky on main: 60–100% over 10 runs", or "main: 10 runs at 100%". */
export function trendWords(t: ScenarioTrend, branch: string): string | null {
  const range = rangeWords(t)
  if (range === null) return null
  return t.flaky ? `flaky on ${branch}: ${range}` : `${branch}: ${range}`
}

/** "main: 10 runs at 100%, now 0/5": the comment's one line for a scenario that moved. */
export function movedTrendWords(t: ScenarioTrend, branch: string, now: TrendNow | null): string | null {
  const words = trendWords(t, branch)
  if (words === null) return null
  return now && now.judged > 0 ? `${words}, now ${fraction(now.passed, now.judged)}` : words
}

const STEP = 9
const HEIGHT = 22
const PAD = 3

/** The y of a pass rate: 100% at the top, 0% at the bottom, whatever the range (flat is flat). */
function y(rate: number): number {
  return round(PAD + (1 - rate) * (HEIGHT - 2 * PAD))
}

function round(value: number): number {
  return Math.round(value * 10) / 10
}

/** The sparkline's text alternative: every run's rate, oldest first, then this run's. */
export function sparklineLabel(t: ScenarioTrend, branch: string, now: TrendNow | null): string {
  const runs = t.points.map((p) => (p === null ? 'no verdict' : percent(p.passed / p.judged)))
  const current = now && now.judged > 0 ? `; this run: ${percent(now.passed / now.judged)} (${fraction(now.passed, now.judged)})` : ''
  return `Pass rate on ${branch} over the last ${plural(t.points.length, 'run')}, oldest first: ${runs.join(', ')}${current}`
}

/**
 * The pass rate over the history's runs, oldest at the left, as a line broken where a run has no
 * verdict for the scenario; this run's rate, when given, as a larger dot at the right.
 */
export function sparkline(t: ScenarioTrend, branch: string, now: TrendNow | null): SafeHtml {
  const current = now && now.judged > 0 ? now.passed / now.judged : null
  const slots = t.points.length + (current === null ? 0 : 1)
  const width = PAD * 2 + STEP * Math.max(slots - 1, 0)
  const x = (index: number) => PAD + index * STEP
  const segments: string[][] = []
  let open: string[] | null = null
  const dots: string[] = []
  t.points.forEach((p: TrendPoint | null, index) => {
    if (p === null) {
      open = null
      // A run without a verdict: a short tick on the baseline, so the gap reads as a run, not as nothing.
      dots.push(`<line class="gap" x1="${x(index)}" x2="${x(index)}" y1="${HEIGHT - 2}" y2="${HEIGHT}"></line>`)
      return
    }
    const point = `${x(index)},${y(p.passed / p.judged)}`
    if (open === null) {
      open = []
      segments.push(open)
    }
    open.push(point)
    dots.push(`<circle cx="${x(index)}" cy="${y(p.passed / p.judged)}" r="1.6"></circle>`)
  })
  const lines = segments.filter((s) => s.length > 1).map((s) => `<polyline points="${s.join(' ')}"></polyline>`)
  const last = t.points.at(-1)
  let nowMark = ''
  if (current !== null) {
    const at = x(t.points.length)
    const join = last ? `<line class="to-now" x1="${x(t.points.length - 1)}" y1="${y(last.passed / last.judged)}" x2="${at}" y2="${y(current)}"></line>` : ''
    nowMark = `${join}<circle class="now" cx="${at}" cy="${y(current)}" r="2.6"></circle>`
  }
  const label = sparklineLabel(t, branch, now)
  // Only numbers computed here go into the drawing; the label is escaped as text.
  return html`<svg class="spark" width="${width}" height="${HEIGHT}" viewBox="0 0 ${width} ${HEIGHT}" role="img" aria-label="${label}"><title>${label}</title><line class="floor" x1="0" x2="${width}" y1="${HEIGHT - 0.5}" y2="${HEIGHT - 0.5}"></line>${trusted(
    lines.join('') + dots.join('') + nowMark,
  )}</svg>`
}

/** The sparkline with its words, for a scenario's row; empty when the history has nothing of it. */
export function trendCell(trend: Trend | null | undefined, id: string, now: TrendNow | null): SafeHtml {
  const t = trend?.scenarios.get(id)
  if (!trend || !t || t.runs === 0) return html``
  const branch = branchName(trend)
  return html`<span class="trend${t.flaky ? ' flaky-main' : ''}">${sparkline(t, branch, now)}${t.flaky ? html`<span class="tag flaky-main">flaky on ${branch}</span>` : ''}</span>`
}

/** A sentence for a scenario's detail: what the branch's runs say of it. */
export function trendSentence(trend: Trend | null | undefined, id: string): SafeHtml {
  const t = trend?.scenarios.get(id)
  if (!trend || !t) return html``
  const branch = branchName(trend)
  const range = rangeWords(t)
  if (range === null) return html`<p class="note">On ${branch}: no verdict in its last ${plural(t.points.length, 'run')}.</p>`
  const missing = t.points.length - t.runs
  return html`<p class="note">On ${branch}: ${range}${missing ? ` (${plural(missing, 'run')} without a verdict)` : ''}.${
    t.flaky ? ` Flaky on ${branch}: its pass rate varied there before this run, so one bad run of it is weak evidence.` : ''
  }</p>`
}
