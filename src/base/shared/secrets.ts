import { decodedView, MAY_HIDE } from './decoded-view.ts'

/**
 * Values read from the environment may be secrets. Everything that leaves the process as text
 * (attempts with the agent's answers, error messages, logs, pages) goes through a mask built from
 * those values. An agent or a server may hand a secret back in another form than it was given: as it
 * is, inside a JSON string, percent-encoded (an echoed URL, upper or lower case), in base64 (an echoed
 * `Basic` header) or hex, so each of those forms is masked too; and escaped a character at a time
 * (HTML entities, `\uXXXX`, `%xx`) or split by invisible characters, which the mask reads through
 * (decoded-view.ts).
 */
export type Mask = (text: string) => string

/** Shorter values are not masked: `***` in place of every "true", "1" or "dev" would wreck the text. */
export const SHORTEST_MASKED = 4

/** Base64 carries a secret's bits at one of three offsets; each gives a run of stable characters. */
const SHORTEST_BASE64_MASKED = 8

export const MASKED = '***'

export const noMask: Mask = (text) => text

export function createMask(secretValues: Iterable<string>): Mask {
  const forms = new Set<string>()
  const seen = new Set<string>()
  for (const value of secretValues) {
    if (value.length < SHORTEST_MASKED) continue
    for (const form of encodedForms(value)) if (form.length >= SHORTEST_MASKED) forms.add(form)
    seen.add(value).add(JSON.stringify(value).slice(1, -1))
  }
  // Longest first, so a form that contains another is replaced whole.
  const values = [...forms].sort((a, b) => b.length - a.length)
  if (values.length === 0) return noMask
  const plain = plainMask(values)
  const readable = [...seen].sort((a, b) => b.length - a.length)
  return (text) => {
    let masked = plain(text)
    // Again until nothing is found, as below: each replacement shortens the text.
    while (MAY_HIDE.test(masked)) {
      const through = maskThroughEscapes(masked, readable)
      if (through === masked) break
      masked = plain(through)
    }
    return masked
  }
}

function plainMask(values: readonly string[]): Mask {
  return (text) => {
    // Again until nothing is found: a secret made of `*` can reappear around a `***` just written.
    // Each replacement shortens the text, so this ends.
    let masked = text
    for (let found = true; found; ) {
      found = false
      for (const value of values) {
        if (!masked.includes(value)) continue
        masked = masked.split(value).join(MASKED)
        found = true
      }
    }
    return masked
  }
}

/** The secret's spans in the text as read through escapes and invisible characters, masked. */
function maskThroughEscapes(text: string, values: readonly string[]): string {
  const view = decodedView(text)
  const spans: [number, number][] = []
  for (const value of values) {
    for (let at = view.text.indexOf(value); at >= 0; at = view.text.indexOf(value, at + 1)) spans.push([view.starts[at]!, view.ends[at + value.length - 1]!])
  }
  if (spans.length === 0) return text
  spans.sort((a, b) => a[0] - b[0])
  let out = ''
  let from = 0
  for (const [start, end] of spans) {
    if (end <= from) continue
    if (start >= from) out += `${text.slice(from, start)}${MASKED}`
    from = end
  }
  return out + text.slice(from)
}

/** Every form in which a secret is masked by a plain search (those read through escapes aside). */
export function encodedForms(value: string): string[] {
  const json = JSON.stringify(value).slice(1, -1)
  const percent = encodeURIComponent(value)
  const lowerPercent = (encoded: string) => encoded.replace(/%[0-9A-F]{2}/g, (escape) => escape.toLowerCase())
  const forms = [value, json, JSON.stringify(json).slice(1, -1), percent, percent.replaceAll('%20', '+'), encodeURI(value), lowerPercent(percent)]
  const bytes = Buffer.from(value, 'utf8')
  const hex = bytes.toString('hex')
  const everyByte = hex.replace(/../g, '%$&')
  forms.push(hex, hex.toUpperCase(), everyByte, everyByte.toUpperCase())
  forms.push(bytes.toString('base64'), bytes.toString('base64url'))
  for (const offset of [0, 1, 2]) {
    const inner = base64Inner(bytes, offset)
    if (inner.length >= SHORTEST_BASE64_MASKED) forms.push(inner, inner.replaceAll('+', '-').replaceAll('/', '_'))
  }
  return forms
}

/**
 * The base64 characters that depend on the secret's bytes alone when it starts `offset` bytes into
 * the encoded data: whatever comes before or after, these characters are the same.
 */
function base64Inner(bytes: Buffer, offset: number): string {
  const encoded = Buffer.concat([Buffer.alloc(offset), bytes]).toString('base64')
  const first = Math.ceil((offset * 8) / 6)
  const end = Math.floor(((offset + bytes.length) * 8) / 6)
  return encoded.slice(first, end)
}

/** Masks every string in a value that is about to be written (an attempt, a record). */
export function maskDeep<T>(value: T, mask: Mask): T {
  // Nothing to mask: the value as it is (it is about to be serialised, not kept).
  if (mask === noMask) return value
  return maskValue(value, mask) as T
}

// Loops rather than Object.entries and fromEntries: an attempt is masked as it is recorded, thousands
// of times a run, and the intermediate arrays showed in the runner's profile (bench/runner.ts).
function maskValue(value: unknown, mask: Mask): unknown {
  if (typeof value === 'string') return mask(value)
  if (value === null || typeof value !== 'object') return value
  if (Array.isArray(value)) {
    const items = new Array<unknown>(value.length)
    for (let i = 0; i < value.length; i++) items[i] = maskValue(value[i], mask)
    return items
  }
  const masked: Record<string, unknown> = {}
  for (const key in value) {
    if (!Object.hasOwn(value, key)) continue
    const item = maskValue((value as Record<string, unknown>)[key], mask)
    const name = mask(key)
    // An agent's JSON may carry a "__proto__" key: kept as a key, as Object.fromEntries would.
    if (name === '__proto__') Object.defineProperty(masked, name, { value: item, enumerable: true, writable: true, configurable: true })
    else masked[name] = item
  }
  return masked
}
