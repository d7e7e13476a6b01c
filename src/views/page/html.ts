import { forPage } from '../../base/shared/invisible.ts'

/**
 * Building HTML where escaping is the default. Every value interpolated into `html` is escaped unless
 * it is already `SafeHtml` (built by `html` itself or by `trusted` for the page's own constants), so
 * text from an agent, a model or a scenario file can only ever become text.
 */
export class SafeHtml {
  readonly value: string
  constructor(value: string) {
    this.value = value
  }
  toString(): string {
    return this.value
  }
}

export type HtmlValue = SafeHtml | string | number | boolean | null | undefined | readonly HtmlValue[]

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }

/** Escapes text for element content and for quoted attribute values alike; see forPage for the rest. */
export function escapeHtml(text: string): string {
  return forPage(text).replace(/[&<>"']/g, (c) => ESCAPES[c]!)
}

function render(value: HtmlValue): string {
  if (value instanceof SafeHtml) return value.value
  if (value === null || value === undefined || value === false || value === true) return ''
  if (typeof value === 'number') return String(value)
  if (typeof value === 'string') return escapeHtml(value)
  let out = ''
  for (const item of value) out += render(item)
  return out
}

export function html(strings: TemplateStringsArray, ...values: HtmlValue[]): SafeHtml {
  let out = strings[0]!
  for (let i = 0; i < values.length; i++) out += render(values[i]!) + strings[i + 1]!
  return new SafeHtml(out)
}

/** Marks markup written by convy-ci itself (never data) as safe to insert as is. */
export function trusted(markup: string): SafeHtml {
  return new SafeHtml(markup)
}

/**
 * JSON that is safe inside `<script type="application/json">`: no `<` can close the element or open a
 * comment, and the two line separators JavaScript once treated as newlines are escaped too.
 */
const JSON_ESCAPES: Record<string, string> = { '<': '\\u003c', '>': '\\u003e', '&': '\\u0026', '\u2028': '\\u2028', '\u2029': '\\u2029' }

export function jsonForScript(value: unknown): string {
  // The page's script shows these strings too: they are cleaned as escaped text is.
  return JSON.stringify(value, (_key, item: unknown) => (typeof item === 'string' ? forPage(item) : item)).replace(/[<>&\u2028\u2029]/g, (c) => JSON_ESCAPES[c]!)
}

/**
 * An element id built from a scenario id: stable across rebuilds (so a shared address keeps working)
 * and made only of characters that are safe in an id, a selector and an address.
 */
export function anchorFor(prefix: string, id: string): string {
  return `${prefix}-${id.replace(/[^A-Za-z0-9.-]/g, (c) => `_${c.codePointAt(0)!.toString(16)}_`)}`
}
