import { asciiLower, compactView, readerText, readerTexts, readerViews, type ReaderView } from './reader-view.ts'

/**
 * Values read from the environment may be secrets. Everything that leaves the process as text
 * (attempts with the agent's answers, error messages, logs, pages) goes through a mask built from
 * those values. The mask works on what a reader sees (reader-view.ts): each text is read as a browser
 * and an eye would read it (escapes of every kind decoded, nested until nothing changes; characters
 * that show as nothing dropped; fullwidth and other compatibility letters as their plain forms;
 * base64, base32 and hex joined across line breaks and groups), the secret and its base64, base32 and
 * hex forms are searched in that view, and the spans of the text the hits come from are replaced.
 * Forms written as they are (raw, JSON-escaped, percent-encoded, base64) are first replaced by a plain
 * search, which costs nothing where nothing hides.
 */
export type Mask = (text: string) => string

/** Shorter values are not masked: `***` in place of every "true", "1" or "dev" would wreck the text. */
export const SHORTEST_MASKED = 4

/** Base64 carries a secret's bits at one of three offsets; each gives a run of stable characters. */
const SHORTEST_BASE64_MASKED = 8

/**
 * Forms at least this long are also searched with white space dropped (a JWT wrapped at 60 columns,
 * MIME base64 at 76, hex in groups); shorter ones only as a reader sees words, so that a short
 * secret is not found across the words of ordinary text.
 */
export const SHORTEST_JOINED = 12

export const MASKED = '***'

export const noMask: Mask = (text) => text

/**
 * Patterns whose matches are masked besides the secrets (convy.yml's `redact:`, compiled by
 * records/config/redact.ts): card numbers, e-mail addresses, whatever the project must not keep.
 */
export interface Redaction {
  /** How many patterns: a redaction of none masks nothing. */
  readonly patterns: number
  /** Every match in a text, as [start, end) spans (they may overlap). */
  spans(text: string): [number, number][]
}

/**
 * An escape that starts just before a secret can take its first characters as its own (`%6` then
 * `Cn4ry…` reads `%6C`, an `l`), and one that starts in its last characters can take what follows:
 * the view then holds the secret but for a few characters at either end. So a key of a long form is
 * its middle, and a hit is widened by as many characters of the view on each side: for the secret
 * written whole, exactly its span; for one whose edge an escape took, that escape too.
 */
const MOST_TAKEN = 8

/** One thing to search in the reader's view. */
interface Key {
  /** The form's middle: `pad` characters left off each end. */
  text: string
  pad: number
  /** Searched in the view lower-cased (hex, base32): `text` is lower case. */
  caseless: boolean
  /** Searched in the view without white space (`text` has none). */
  joined: boolean
}

export function createMask(secretValues: Iterable<string>, redaction?: Redaction): Mask {
  const secrets = maskOfSecrets(secretValues)
  if (redaction === undefined || redaction.patterns === 0) return secrets
  // A pattern may match digits: numbers are asked about (the mask is not added to NUMBERLESS).
  return secrets === noMask ? (text) => redacted(text, redaction) : (text) => redacted(secrets(text), redaction)
}

/**
 * The redaction's matches masked: in the text as written and, where the text holds anything a reader
 * does not see as written (escapes, characters that show as nothing), in each level of the reader's
 * view, mapped back to the text.
 */
function redacted(text: string, redaction: Redaction): string {
  const spans = redaction.spans(text)
  if (!PLAIN_TEXT.test(text) && readerTexts(text).some((level) => level !== text && redaction.spans(level).length > 0)) {
    for (const view of readerViews(text)) {
      for (const [start, end] of redaction.spans(view.text)) spans.push([view.starts[start]!, view.ends[end - 1]!])
    }
  }
  return replaceSpans(text, spans)
}

/** Each span of the text replaced by MASKED; overlapping or touching spans become one. */
function replaceSpans(text: string, spans: [number, number][]): string {
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

function maskOfSecrets(secretValues: Iterable<string>): Mask {
  const forms = new Set<string>()
  const keys = new Map<string, Key>()
  const addKey = (text: string, caseless: boolean) => {
    const joined = text.replaceAll(' ', '')
    const form = joined.length >= SHORTEST_JOINED ? joined : text
    if (form.length < SHORTEST_MASKED) return
    const pad = Math.min(MOST_TAKEN, Math.max(0, Math.floor((form.length - SHORTEST_JOINED) / 2)))
    const key = { text: form.slice(pad, form.length - pad), pad, caseless, joined: form === joined && joined.length >= SHORTEST_JOINED }
    keys.set(`${key.caseless}${key.joined}${pad}${key.text}`, key)
  }
  for (const value of secretValues) {
    if (value.length < SHORTEST_MASKED) continue
    for (const form of encodedForms(value)) if (form.length >= SHORTEST_MASKED) forms.add(form)
    addKey(readerText(value), false)
    // As a request carries it, for the levels of the view where it is not decoded yet.
    for (const form of [encodeURIComponent(value), JSON.stringify(value).slice(1, -1)]) if (form !== value) addKey(form, false)
    // The secret's bytes encoded, and those of the forms a request carries it in (a URL, a JSON string).
    for (const carried of new Set([value, encodeURIComponent(value), JSON.stringify(value).slice(1, -1)])) {
      for (const form of binaryForms(Buffer.from(carried, 'utf8'))) addKey(form.text, form.caseless)
    }
  }
  // Longest first, so a form that contains another is replaced whole.
  const values = [...forms].sort((a, b) => b.length - a.length)
  if (values.length === 0) return noMask
  const plain = plainMask(values)
  const search = [...keys.values()].sort((a, b) => b.text.length - a.text.length)
  const mask: Mask = (text) => {
    let masked = plain(text)
    // Again until nothing is found (at most a few rounds): a secret made of `*` can reappear around a
    // `***` just written.
    for (let round = 0; round < 4; round++) {
      const through = maskThroughView(masked, search)
      if (through === masked) break
      masked = plain(through)
    }
    return masked
  }
  const numeric = /^[0-9.eE+-]+$/
  if (!values.some((form) => numeric.test(form)) && !search.some((key) => numeric.test(key.text))) NUMBERLESS.add(mask)
  return mask
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

// Text whose reader's view is itself but for its white space: printable ASCII with no escape.
const PLAIN_TEXT = /^[\x20-\x24\x27-\x5b\x5d-\x7e\t\n\r]*$/

/** The four strings a key may be searched in; the lower-cased ones made when first asked for. */
class Views {
  #lowerSpaced?: string
  #lowerJoined?: string
  constructor(
    readonly spaced: string,
    readonly joined: string,
    readonly lower: (text: string) => string,
  ) {}
  of(key: Key): string {
    if (!key.caseless) return key.joined ? this.joined : this.spaced
    if (key.joined) return (this.#lowerJoined ??= this.lower(this.joined))
    return (this.#lowerSpaced ??= this.lower(this.spaced))
  }
}

/**
 * The keys' spans in the text as a reader sees it, masked: in the view at each level of decoding
 * (reader-view.ts). The views are searched as text first (for plain ASCII, with native string
 * operations alone); the maps back to the text are built only when something was found.
 */
function maskThroughView(text: string, keys: readonly Key[]): string {
  // Printable ASCII without escapes: the one view is the text, its white space made spaces.
  const levels = PLAIN_TEXT.test(text) ? [text.replace(/[\t\n\r]/g, ' ')] : readerTexts(text)
  const lower = (t: string) => t.toLowerCase()
  const found = levels.map((spaced) => new Views(spaced, spaced.replaceAll(' ', ''), lower))
  if (!keys.some((key) => found.some((views) => views.of(key).includes(key.text)))) return text
  const spans: [number, number][] = []
  for (const view of readerViews(text)) {
    const joined = compactView(view)
    const views = new Views(view.text, joined.text, asciiLower)
    for (const key of keys) {
      const map: ReaderView = key.joined ? joined : view
      const searched = views.of(key)
      const last = map.text.length - 1
      for (let at = searched.indexOf(key.text); at >= 0; at = searched.indexOf(key.text, at + 1)) {
        spans.push([map.starts[Math.max(0, at - key.pad)]!, map.ends[Math.min(last, at + key.text.length - 1 + key.pad)]!])
      }
    }
  }
  return replaceSpans(text, spans)
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

/**
 * Masks made by createMask whose secrets cannot print as a number (none is made of digits, `.`, `e`,
 * `+` and `-` alone): maskDeep skips the numbers for these. Any other mask is asked about every number.
 */
const NUMBERLESS = new WeakSet<Mask>([noMask])

/**
 * Numbers in a record are masked as what they print as (a PIN echoed as a JSON number in a tool's
 * arguments or the usage). The replacement keeps the record readable: a number in data whose shape
 * the record leaves open (tool arguments and results, context, world state, anything not below) becomes
 * the string `***`; a count or measure the record's schema types as a number becomes 0; convy-ci's own
 * ordinals (attempt, line, turn, k…) are its numbering, not data it was handed, and stay.
 */
const OPEN_DATA = new Set(['arguments', 'result', 'context', 'state'])
const MEASURES = new Set(['input', 'output', 'inputTokens', 'outputTokens', 'seconds', 'firstTokenSeconds', 'at', 'costUsd', 'agentCostUsd', 'calls', 'tries', 'cachedCalls', 'seed'])
const ORDINALS = new Set(['attempt', 'line', 'turn', 'replayOf', 'k', 'parallel', 'judgeSamples', 'index', 'total', 'pullRequest', 'format', 'turnTimeoutSeconds', 'budgetUsd', 'judgeTemperature'])

/** Masks every string, key and number in a value that is about to be written (an attempt, a record). */
export function maskDeep<T>(value: T, mask: Mask): T {
  // Nothing to mask: the value as it is (it is about to be serialised, not kept).
  if (mask === noMask) return value
  return maskValue(value, mask, !NUMBERLESS.has(mask), undefined, false) as T
}

// Loops rather than Object.entries and fromEntries: an attempt is masked as it is recorded, thousands
// of times a run, and the intermediate arrays showed in the runner's profile (bench/runner.ts).
function maskValue(value: unknown, mask: Mask, numbers: boolean, key: string | undefined, open: boolean): unknown {
  if (typeof value === 'string') return mask(value)
  if (typeof value === 'number') return numbers ? maskNumber(value, mask, key, open) : value
  if (value === null || typeof value !== 'object') return value
  if (Array.isArray(value)) {
    const items = new Array<unknown>(value.length)
    for (let i = 0; i < value.length; i++) items[i] = maskValue(value[i], mask, numbers, key, open)
    return items
  }
  const masked: Record<string, unknown> = {}
  for (const key in value) {
    if (!Object.hasOwn(value, key)) continue
    const item = maskValue((value as Record<string, unknown>)[key], mask, numbers, key, open || OPEN_DATA.has(key))
    const name = mask(key)
    // An agent's JSON may carry a "__proto__" key: kept as a key, as Object.fromEntries would.
    if (name === '__proto__') Object.defineProperty(masked, name, { value: item, enumerable: true, writable: true, configurable: true })
    else masked[name] = item
  }
  return masked
}

function maskNumber(value: number, mask: Mask, key: string | undefined, open: boolean): unknown {
  const printed = JSON.stringify(value)
  if (printed.length < SHORTEST_MASKED || mask(printed) === printed) return value
  if (open || key === undefined) return MASKED
  if (MEASURES.has(key)) return 0
  return ORDINALS.has(key) ? value : MASKED
}

/**
 * A secret's bytes as base64, base32 and hex, as they appear inside longer encoded data (an echoed
 * `Basic` header, a JWT's payload, a dump). Hex is byte for byte; base64 carries a byte's bits at one
 * of three offsets and base32 at one of five, so each offset gives its run of characters that depend
 * on the secret alone: whatever comes before or after, those characters are the same.
 */
interface BinaryForm {
  text: string
  /** Hex and base32 are read in either case; base64 only as written. */
  caseless: boolean
}

/** Shorter runs are not searched: eight base64 characters are six bytes of the secret. */
const SHORTEST_BINARY_FORM = 8

function binaryForms(bytes: Buffer): BinaryForm[] {
  const forms: BinaryForm[] = [{ text: bytes.toString('hex'), caseless: true }]
  for (const offset of [0, 1, 2]) {
    const inner = innerRun(Buffer.concat([Buffer.alloc(offset), bytes]).toString('base64'), offset, bytes.length, 6)
    forms.push({ text: inner, caseless: false }, { text: inner.replaceAll('+', '-').replaceAll('/', '_'), caseless: false })
  }
  for (const offset of [0, 1, 2, 3, 4]) forms.push({ text: innerRun(base32(Buffer.concat([Buffer.alloc(offset), bytes])), offset, bytes.length, 5), caseless: true })
  const unique = new Map<string, BinaryForm>()
  for (const form of forms) {
    const key = form.caseless ? form.text.toLowerCase() : form.text
    if (form.text.length >= SHORTEST_BINARY_FORM) unique.set(key, { text: key, caseless: form.caseless })
  }
  return [...unique.values()]
}

/** The characters of an encoding (`bits` per character) that hold only the bytes from `offset` on, `length` of them. */
function innerRun(encoded: string, offset: number, length: number, bits: number): string {
  return encoded.slice(Math.ceil((offset * 8) / bits), Math.floor(((offset + length) * 8) / bits))
}

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567'

/** RFC 4648 base32 without padding (Node has no encoder of its own). */
export function base32(bytes: Uint8Array): string {
  let out = ''
  let buffer = 0
  let bits = 0
  for (const byte of bytes) {
    buffer = ((buffer << 8) | byte) & 0xffff
    bits += 8
    while (bits >= 5) {
      out += BASE32[(buffer >> (bits - 5)) & 31]
      bits -= 5
    }
  }
  if (bits > 0) out += BASE32[(buffer << (5 - bits)) & 31]
  return out
}
