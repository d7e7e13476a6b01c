import { readerChars, readerForm } from './reader-characters.ts'
import { backslashEscape, byteEscape, entity } from './escapes.ts'

/**
 * A text as a reader would see it, with, for each character seen, where it came from in the text. A
 * secret reaches an output written in escapes (a framework's error page shows request headers
 * HTML-escaped, `&#x74;` or `&#00000116;`; JSON writes `\u0074`, and JSON inside JSON `\\u0074`; a URL
 * `%74`, and a URL inside a URL `%2574`; a log `\x74`), split by characters that show as nothing
 * (U+200B, U+034F, U+FE0F, U+E0020…), in fullwidth letters, or wrapped over lines. The mask
 * (secrets.ts) searches this view and masks the spans of the text its hits come from.
 *
 * The text's characters are first read as reader-characters.ts says (so a character that shows as
 * nothing cannot break an escape in two), then one level of escapes is decoded and the decoded
 * characters read the same way, level after level until nothing is left to decode (each level is
 * linear in the text; at most MAX_LAYERS, so
 * `%25252525…` costs a bounded number of passes). White space is a single space in the view; the
 * compact view drops it too, joining base64, base32 and hex broken over lines or into groups.
 */
export interface ReaderView {
  text: string
  /** Where character i of `text` starts in the original text. */
  starts: Int32Array
  /** Where character i of `text` ends in the original text (exclusive). */
  ends: Int32Array
}

/** Escapes nested deeper than this are left as the last layer shows them. */
export const MAX_LAYERS = 8

interface Layer {
  text: string
  /** Whether anything was decoded or read differently: if not, the fixpoint is reached. */
  changed: boolean
  from: number[]
  to: number[]
}

/**
 * The view as text alone (no map): what the mask searches first. The same text as readerView's, made
 * with native string operations but for the escapes (readerChars on the whole text, not a code
 * point at a time).
 */
export function readerText(text: string): string {
  return decodedText(readerChars(text))
}

/**
 * The view at every level: before any escape is decoded (readerChars), after each level, the last
 * being readerText's. Each is searched: text around a secret can make an escape of its first
 * characters (`&#` then `0010…`, `\u` then `5143…`, or `\u` then `\u{30}…` one level later), which
 * the next level reads as one character.
 */
export function readerTexts(text: string): string[] {
  const levels = [readerChars(text)]
  for (let n = 0; n < MAX_LAYERS; n++) {
    const decoded = decodeEscapes(levels.at(-1)!)
    if (decoded === levels.at(-1)) break
    levels.push(readerChars(decoded))
  }
  return levels
}

function decodedText(literal: string): string {
  let current = literal
  for (let n = 0; n < MAX_LAYERS; n++) {
    const decoded = decodeEscapes(current)
    if (decoded === current) break
    current = readerChars(decoded)
  }
  return current
}

const ESCAPE_START = /[%\\&]/g

/** The escape that starts at `at` (a `%`, `\\` or `&` found there), decoded; undefined when none does. */
function escapeAt(src: string, at: number): ReturnType<typeof entity> {
  const c = src.charCodeAt(at)
  return c === 0x25 ? byteEscape(src, at, 1) : c === 0x5c ? backslashEscape(src, at) : entity(src, at)
}

/** One level of escapes decoded, nothing else read differently. */
function decodeEscapes(src: string): string {
  let out = ''
  let from = 0
  ESCAPE_START.lastIndex = 0
  for (let m = ESCAPE_START.exec(src); m; m = ESCAPE_START.exec(src)) {
    const at = m.index
    const decoded = escapeAt(src, at)
    if (!decoded) continue
    out += src.slice(from, at) + decoded.text
    from = decoded.end
    ESCAPE_START.lastIndex = from
  }
  return from === 0 ? src : out + src.slice(from)
}

/** The view with its map back to the text: built only where a search found something. */
export function readerView(text: string): ReaderView {
  return readerViews(text).at(-1)!
}

/** readerTexts' levels with their maps. */
export function readerViews(text: string): ReaderView[] {
  const view = identity(text)
  apply(view, charsLayer(text))
  const levels = [{ ...view }]
  for (let n = 0; n < MAX_LAYERS; n++) {
    const decoded = escapesLayer(view.text)
    if (!decoded.changed) break
    apply(view, decoded)
    apply(view, charsLayer(view.text))
    levels.push({ ...view })
  }
  return levels
}

function identity(text: string): ReaderView {
  const starts = new Int32Array(text.length)
  const ends = new Int32Array(text.length)
  for (let i = 0; i < text.length; i++) {
    starts[i] = i
    ends[i] = i + 1
  }
  return { text, starts, ends }
}

/** The view made of the layer's text, each character's span composed through the layer's map. */
function apply(view: ReaderView, layer: Layer): void {
  if (!layer.changed) return
  const starts = new Int32Array(layer.from.length)
  const ends = new Int32Array(layer.from.length)
  for (let i = 0; i < starts.length; i++) {
    starts[i] = view.starts[layer.from[i]!]!
    ends[i] = view.ends[layer.to[i]! - 1]!
  }
  view.text = layer.text
  view.starts = starts
  view.ends = ends
}

/** The view without its spaces: base64, base32 and hex read across line breaks and groups. */
export function compactView(view: ReaderView): ReaderView {
  const kept: number[] = []
  for (let i = 0; i < view.text.length; i++) if (view.text.charCodeAt(i) !== 32) kept.push(i)
  const starts = new Int32Array(kept.length)
  const ends = new Int32Array(kept.length)
  for (let k = 0; k < kept.length; k++) {
    starts[k] = view.starts[kept[k]!]!
    ends[k] = view.ends[kept[k]!]!
  }
  return { text: view.text.replaceAll(' ', ''), starts, ends }
}

/** A-Z lowered, nothing else (a length-preserving lower case, for hex and base32). */
export function asciiLower(text: string): string {
  return text.replace(/[A-Z]+/g, (upper) => upper.toLowerCase())
}

// Printable ASCII and the space, but for the three characters that start an escape: read as it is.
const PLAIN_RUN = /[\x20-\x24\x27-\x5b\x5d-\x7e]+/y

/** Each code point read as readerForm says (readerChars, with a map). */
function charsLayer(src: string): Layer {
  const layer: Layer = { text: '', changed: false, from: [], to: [] }
  let i = 0
  while (i < src.length) {
    PLAIN_RUN.lastIndex = i
    if (PLAIN_RUN.test(src)) {
      push(layer, src.slice(i, PLAIN_RUN.lastIndex), i, PLAIN_RUN.lastIndex, true)
      i = PLAIN_RUN.lastIndex
      continue
    }
    const pair = src.charCodeAt(i) >= 0xd800 && src.charCodeAt(i) <= 0xdbff && (src.charCodeAt(i + 1) & 0xfc00) === 0xdc00
    const end = pair ? i + 2 : i + 1
    const form = readerForm(src.codePointAt(i)!)
    if (form !== src.slice(i, end)) layer.changed = true
    push(layer, form, i, end, false)
    i = end
  }
  return layer
}

/** One level of escapes decoded (decodeEscapes, with a map). */
function escapesLayer(src: string): Layer {
  const layer: Layer = { text: '', changed: false, from: [], to: [] }
  let from = 0
  ESCAPE_START.lastIndex = 0
  for (let m = ESCAPE_START.exec(src); m; m = ESCAPE_START.exec(src)) {
    const at = m.index
    const decoded = escapeAt(src, at)
    if (!decoded) continue
    push(layer, src.slice(from, at), from, at, true)
    push(layer, decoded.text, at, decoded.end, false)
    layer.changed = true
    from = decoded.end
    ESCAPE_START.lastIndex = from
  }
  push(layer, src.slice(from), from, src.length, true)
  return layer
}

/** Text into a layer: each character from its own one (`same`), or all from the span start…end. */
function push(layer: Layer, text: string, start: number, end: number, same: boolean): void {
  layer.text += text
  for (let k = 0; k < text.length; k++) {
    layer.from.push(same ? start + k : start)
    layer.to.push(same ? start + k + 1 : end)
  }
}
