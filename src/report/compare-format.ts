/** Numbers as people read them in the comparison's text. Plain text; no markdown. */
import { count } from './format.ts'

// Counts are written the same way on the pages and in the comparison's text.
export { count, plural } from './format.ts'

export const MINUS = '\u2212'

export function percent(rate: number): string {
  const rounded = Math.round(rate * 100)
  // 99.6% is not 100%: keep a decimal rather than claim every attempt passed (or none did).
  if ((rounded === 100 && rate < 1) || (rounded === 0 && rate > 0)) return `${(rate * 100).toFixed(1)}%`
  return `${rounded}%`
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

export function seconds(value: number): string {
  if (value < 0.1) return `${Math.round(value * 1000)} ms`
  return `${value < 10 ? value.toFixed(1) : count(value)} s`
}


export function dollars(value: number): string {
  return `$${value.toFixed(value !== 0 && Math.abs(value) < 1 ? 3 : 2)}`
}

export function signedDollars(value: number): string {
  const text = dollars(Math.abs(value))
  return Number(Math.abs(value).toFixed(3)) === 0 ? text : `${value < 0 ? MINUS : '+'}${text}`
}

/** "5/5": passes out of attempts with a verdict. */
export function fraction(passed: number, judged: number): string {
  return `${passed}/${judged}`
}
