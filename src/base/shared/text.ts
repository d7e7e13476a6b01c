/**
 * Whole numbers and long texts made short, the same way on every machine: for counts on pages and
 * in messages, and for the texts a tally keeps of each attempt (a reason, an error).
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

/** "1 attempt", "3 attempts", "1,200 scenarios". */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${count(n)} ${n === 1 ? one : many}`
}

/** Cuts before `end` without splitting a surrogate pair, which would leave a broken character. */
export function cutAt(text: string, end: number): number {
  if (end >= text.length) return text.length
  const code = text.charCodeAt(end - 1)
  return code >= 0xd800 && code <= 0xdbff ? end - 1 : end
}

/** A short text (a reason, an error) capped without folding. */
export function capped(text: string, max = 4_000): string {
  if (text.length <= max) return text
  const end = cutAt(text, max)
  return `${text.slice(0, end)}… (${count(text.length - end)} more characters)`
}
