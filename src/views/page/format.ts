/**
 * How numbers, times, money and long texts read on the pages, in the pull request's comment and in
 * the terminal: the one place each is formatted. Everything reads the same whatever the machine's
 * locale or time zone, so two people looking at one result see the same words. Plain text; no markup.
 */
import { cutAt } from '../../base/shared/text.ts'

// Counts and texts cut short are made the same way by the tally and the pages.
export { capped, count, plural } from '../../base/shared/text.ts'

export const MINUS = '\u2212'

/** 90%. 99.6% is not 100%: a decimal is kept rather than claim every attempt passed (or none did). */
export function percent(rate: number | null): string {
  if (rate === null) return '–'
  const rounded = Math.round(rate * 100)
  if ((rounded === 100 && rate < 1) || (rounded === 0 && rate > 0)) return `${(rate * 100).toFixed(1)}%`
  return `${rounded}%`
}

/** A rate as `percent` shows it: "67%" is 0.67, so a change is computed from what the reader sees. */
export function shownRate(rate: number): number {
  return Number(percent(rate).slice(0, -1)) / 100
}

/** The change between two rates as the reader can check it against them: "98% to 96%" is −2 pp, not −1.8. */
export function shownPoints(before: number, after: number): string {
  return points(shownRate(after) - shownRate(before))
}

export function percentRange(low: number, high: number): string {
  return `${Math.round(low * 100)}–${Math.round(high * 100)}%`
}


/** "5/5": passes out of attempts with a verdict. */
export function fraction(passed: number, judged: number): string {
  return `${passed}/${judged}`
}

/** A signed number: +3, −2, 0. */
export function signed(value: number, digits = 0): string {
  const text = Math.abs(value).toFixed(digits)
  if (Number(text) === 0) return text
  return `${value < 0 ? MINUS : '+'}${text}`
}

/** A change of rate in percentage points: −7 pp, +2.9 pp. */
export function points(change: number): string {
  const value = change * 100
  return `${signed(value, Math.abs(value - Math.round(value)) < 0.05 ? 0 : 1)} pp`
}

/** A p-value with two significant digits, as the statistics notes write them. */
export function pValue(p: number): string {
  if (p < 0.0001) return '< 0.0001'
  if (p >= 0.995) return '1'
  return p.toPrecision(2)
}

/** "p = 0.090" or "p < 0.0001". */
export function pEquals(p: number): string {
  const text = pValue(p)
  return text.startsWith('<') ? `p ${text}` : `p = ${text}`
}

/** The one way a duration is written: 250 ms, 1.5 s, 42 s, 3 min 5 s, 2 h 10 min; – when unknown. */
export function seconds(s: number | null): string {
  if (s === null) return '–'
  // A local or cached agent answers in milliseconds: "0.0 s" would hide the difference.
  if (s < 0.1) return `${Math.round(s * 1000)} ms`
  if (s < 10) return `${s.toFixed(1)} s`
  if (s < 60) return `${Math.round(s)} s`
  const minutes = Math.floor(s / 60)
  if (minutes < 60) return `${minutes} min ${Math.round(s - minutes * 60)} s`
  const hours = Math.floor(minutes / 60)
  return `${hours} h ${minutes - hours * 60} min`
}

/** A change of duration in the unit `seconds` would show it in: +0.4 s, −1.2 s, +20 ms, 0 ms. */
/** Seconds as `seconds` shows them (92 ms, 1.2 s, 12 s), so a change is computed from what the reader sees. */
export function shownSeconds(s: number): number {
  if (s < 0.1) return Math.round(s * 1000) / 1000
  if (s < 10) return Math.round(s * 10) / 10
  if (s < 60) return Math.round(s)
  return s
}

/**
 * A before → after figure's change as the two figures are shown, so that "105 ms → 92 ms" reads
 * "−13 ms", never a difference of the unrounded values that disagrees with them; null without both.
 */
export function shownChange<T extends { before: number | null; after: number | null; change: number | null }>(tile: T, shown: (value: number) => number): T {
  if (tile.change === null || tile.before === null || tile.after === null) return tile
  return { ...tile, change: shown(tile.after) - shown(tile.before) }
}

export function secondsChange(change: number): string {
  if (Math.abs(change) >= 0.1) return `${signed(change, 1)} s`
  return `${signed(Math.round(change * 1000))} ms`
}

/**
 * The one way dollars are written: cents from a dime up ($0.88, $12.50) and, below that, up to two
 * significant digits, since an attempt often costs a fraction of a cent ($0.034, $0.0021, $0.000001).
 */
export function dollars(usd: number): string {
  const size = Math.abs(usd)
  // Sums of prices carry float noise far below any price: that is nothing, not a nano-dollar.
  if (size < 1e-9) return '$0.00'
  const sign = usd < 0 ? MINUS : ''
  if (size >= 0.1) return `${sign}$${size.toFixed(2)}`
  const digits = Math.min(20, 1 - Math.floor(Math.log10(size)))
  // Trailing zeros past the cents say nothing: $0.05, not $0.050.
  return `${sign}$${size.toFixed(digits).replace(/(\.\d\d\d*?)0+$/, '$1')}`
}

/** A change in dollars: +$0.12, −$0.0031, $0.00. */
export function signedDollars(change: number): string {
  const text = dollars(Math.abs(change))
  return text === '$0.00' ? text : `${change < 0 ? MINUS : '+'}${text}`
}

/** `2026-11-29 10:48 UTC`; the raw value when it is not a date. */
export function when(iso: string): string {
  const date = new Date(iso)
  if (Number.isNaN(date.getTime())) return iso
  return `${date.toISOString().slice(0, 16).replace('T', ' ')} UTC`
}

export function duration(fromIso: string, toIso: string): number | null {
  const ms = new Date(toIso).getTime() - new Date(fromIso).getTime()
  return Number.isNaN(ms) || ms < 0 ? null : ms / 1000
}

/** The most of one text a page carries; the rest is only counted, and stays in attempts.jsonl. */
const MAX_SHOWN_CHARS = 20_000
/** Longer texts open folded: this much shows, the rest behind a "show all" toggle. */
const FOLD_CHARS = 1_200

export interface ShownText {
  /** What the page shows at first. */
  head: string
  /** What a reader can unfold, up to MAX_SHOWN_CHARS in all; empty when nothing is folded. */
  rest: string
  /** The text's full length in characters (UTF-16 code units), so a cut is stated, never silent. */
  length: number
}

export function shownText(text: string, fold = FOLD_CHARS, max = MAX_SHOWN_CHARS): ShownText {
  if (text.length <= fold) return { head: text, rest: '', length: text.length }
  const headEnd = cutAt(text, fold)
  const restEnd = cutAt(text, max)
  return { head: text.slice(0, headEnd), rest: text.slice(headEnd, restEnd), length: text.length }
}
