/**
 * How numbers, times and long texts read on the pages. Everything is formatted the same way whatever
 * the machine's locale or time zone, so two people looking at one report see the same words.
 */

/** 12,345: written out by hand, since toLocaleString is slow enough to show in a 10,000-attempt report. */
export function count(n: number): string {
  const digits = String(Math.abs(Math.round(n)))
  let out = ''
  for (let i = 0; i < digits.length; i++) {
    if (i > 0 && (digits.length - i) % 3 === 0) out += ','
    out += digits[i]
  }
  return n < 0 && Math.round(n) !== 0 ? `-${out}` : out
}

export function percent(rate: number | null): string {
  return rate === null ? '–' : `${Math.round(rate * 100)}%`
}

export function percentRange(low: number, high: number): string {
  return `${Math.round(low * 100)}–${Math.round(high * 100)}%`
}

export function plural(n: number, one: string, many = `${one}s`): string {
  return `${count(n)} ${n === 1 ? one : many}`
}

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

export function dollars(usd: number): string {
  if (usd === 0) return '$0'
  if (usd < 0.01) return `$${usd.toFixed(4)}`
  return `$${usd.toFixed(2)}`
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

/** Cuts before `end` without splitting a surrogate pair, which would leave a broken character. */
function cutAt(text: string, end: number): number {
  if (end >= text.length) return text.length
  const code = text.charCodeAt(end - 1)
  return code >= 0xd800 && code <= 0xdbff ? end - 1 : end
}

export function shownText(text: string, fold = FOLD_CHARS, max = MAX_SHOWN_CHARS): ShownText {
  if (text.length <= fold) return { head: text, rest: '', length: text.length }
  const headEnd = cutAt(text, fold)
  const restEnd = cutAt(text, max)
  return { head: text.slice(0, headEnd), rest: text.slice(headEnd, restEnd), length: text.length }
}

/** A short text (a reason, an error) capped without folding. */
export function capped(text: string, max = 4_000): string {
  if (text.length <= max) return text
  const end = cutAt(text, max)
  return `${text.slice(0, end)}… (${count(text.length - end)} more characters)`
}
