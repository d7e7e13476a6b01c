/**
 * A text as a reader would see it, with, for each character seen, where it came from in the text. A
 * secret reaches an output written in escapes (a framework's error page shows request headers
 * HTML-escaped, `&#x74;` or `&#00000116;`; JSON writes `\u0074`, and JSON inside JSON `\\u0074`; a URL
 * `%74`, and a URL inside a URL `%2574`; a log `\x74`), split by characters that show as nothing
 * (U+200B, U+034F, U+FE0F, U+E0020…), in fullwidth letters, or wrapped over lines. The mask
 * (secrets.ts) searches this view and masks the spans of the text its hits come from.
 *
 * The text's characters are first read as readerChars says (below; so a character that shows as
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

/**
 * What a reader's eye makes of one character, for the view above:
 *
 * - nothing, for a character that shows as nothing or only changes the one before it: every default-ignorable
 *   code point (zero-width characters, joiners, variation selectors, tags, U+034F, U+180B, U+17B4, U+206F…),
 *   every format character (Cf: bidi controls, the soft hyphen), every combining mark (M), and control
 *   characters other than tab and line breaks;
 * - a space, for any white space (no-break, ideographic, line and paragraph separators);
 * - its compatibility form without marks, for everything else: NFKD, then marks dropped, so fullwidth
 *   `Ａ`, mathematical `𝐀` and `A` with a combining accent all read as `A`. This equates everything NFKC
 *   equates (and accented letters with their bases), one code point at a time, so a view keeps a map
 *   from each of its characters back to the text.
 */
// Tab and line breaks are white space; other controls, and U+FEFF (which \s counts as a space), show as nothing.
const DROPPED = /(?![\t-\r])[\p{Default_Ignorable_Code_Point}\p{Cf}\p{M}\p{Cc}]/gu
const WHITE = /\s/gu

/**
 * The reader's form of a text: NFKD, then what shows as nothing dropped and white space made a
 * space. NFKD decomposes each code point on its own and only reorders the marks, which are dropped,
 * so this is the concatenation of each code point's form (readerForm): the view may apply it to a
 * whole text at once, or a character at a time where it keeps a map.
 */
function readerChars(text: string): string {
  // Printable ASCII, tab and line breaks: only the white space to make spaces (NFKD and the regular
  // expressions over a whole text cost some 50 ns a character).
  if (!NOT_PLAIN.test(text)) return text.replace(LINE_WHITE, ' ')
  return text.normalize('NFKD').replace(DROPPED, '').replace(WHITE, ' ')
}
const NOT_PLAIN = /[^\x20-\x7e\t\n\r]/
const LINE_WHITE = /[\t\n\r]/g

/** Answers cached per code point: a text repeats its characters, and normalize() is not free. */
const seen = new Map<number, string>()

/** The reader's form of one code point: '' (not seen), ' ' (white space), or its NFKD form without marks. */
function readerForm(codePoint: number): string {
  // Printable ASCII reads as itself: the common case, answered without a lookup.
  if (codePoint >= 0x21 && codePoint <= 0x7e) return String.fromCharCode(codePoint)
  let form = seen.get(codePoint)
  if (form === undefined) {
    form = readerChars(String.fromCodePoint(codePoint))
    seen.set(codePoint, form)
  }
  return form
}

/**
 * Named HTML entities a browser decodes to a character that matters here: printable ASCII (a
 * secret written `&sol;` or `&period;`), and those that show as nothing or as a space. The full
 * list has 2,231 names, most for letters no secret of printable ASCII holds; an unknown name stays as
 * written.
 */
const NAMED_ENTITIES: Readonly<Record<string, string>> = {
  amp: '&', AMP: '&', lt: '<', LT: '<', gt: '>', GT: '>', quot: '"', QUOT: '"', apos: "'",
  excl: '!', num: '#', dollar: '$', percnt: '%', lpar: '(', rpar: ')', ast: '*', midast: '*', plus: '+',
  comma: ',', period: '.', sol: '/', colon: ':', semi: ';', equals: '=', quest: '?', commat: '@',
  lsqb: '[', lbrack: '[', bsol: '\\', rsqb: ']', rbrack: ']', Hat: '^', lowbar: '_', UnderBar: '_',
  grave: '`', DiacriticalGrave: '`', lcub: '{', lbrace: '{', verbar: '|', vert: '|', VerticalLine: '|',
  rcub: '}', rbrace: '}', Tab: '\t', NewLine: '\n', nbsp: '\u00A0', NonBreakingSpace: '\u00A0',
  shy: '\u00AD', zwj: '\u200D', zwnj: '\u200C', lrm: '\u200E', rlm: '\u200F', ZeroWidthSpace: '\u200B',
  NegativeVeryThinSpace: '\u200B', NegativeThinSpace: '\u200B', NegativeMediumSpace: '\u200B',
  NegativeThickSpace: '\u200B', NoBreak: '\u2060', ApplyFunction: '\u2061', af: '\u2061',
  InvisibleTimes: '\u2062', it: '\u2062', InvisibleComma: '\u2063', ic: '\u2063',
}

/** Names a browser also decodes without the semicolon (the legacy ones among those above). */
const LEGACY_ENTITIES = new Set(['amp', 'AMP', 'lt', 'LT', 'gt', 'GT', 'quot', 'QUOT', 'nbsp', 'shy'])

/**
 * One escape decoded where it starts: `%XX` and `\xXX` bytes (UTF-8 sequences read whole), `\u`,
 * `\u{…}`, `\U` and the one-letter escapes of JSON and JavaScript, and HTML's entities. Each answers
 * the decoded text and where the escape ends, or undefined when what starts there is no escape. The
 * view above decodes a text level by level with them.
 */
interface Decoded {
  text: string
  end: number
}

function hexValue(code: number): number {
  if (code >= 0x30 && code <= 0x39) return code - 0x30
  const lower = code | 0x20
  return lower >= 0x61 && lower <= 0x66 ? lower - 0x61 + 10 : -1
}

/** `count` hex digits at `at`, or -1. */
function hexAt(src: string, at: number, count: number): number {
  let value = 0
  for (let k = 0; k < count; k++) {
    const digit = hexValue(src.charCodeAt(at + k))
    if (digit < 0) return -1
    value = value * 16 + digit
  }
  return value
}

/**
 * `%XX` (prefix 1) or `\xXX` (prefix 2): a byte. A byte of 0x80 or more starts a UTF-8 sequence read
 * from the escapes that follow (`%E2%80%8B` is U+200B); a byte that starts none reads as Latin-1.
 */
function byteEscape(src: string, at: number, prefix: 1 | 2): Decoded | undefined {
  const byte = hexAt(src, at + prefix, 2)
  if (byte < 0) return undefined
  const width = prefix + 2
  if (byte < 0x80) return { text: String.fromCharCode(byte), end: at + width }
  const more = byte >= 0xf0 && byte <= 0xf4 ? 3 : byte >= 0xe0 ? 2 : byte >= 0xc2 && byte <= 0xdf ? 1 : 0
  let codePoint = byte & (more === 3 ? 0x07 : more === 2 ? 0x0f : 0x1f)
  let end = at + width
  for (let k = 0; k < more; k++) {
    const next = src.startsWith(src.slice(at, at + prefix), end) ? hexAt(src, end + prefix, 2) : -1
    if (next < 0x80 || next > 0xbf) return { text: String.fromCharCode(byte), end: at + width }
    codePoint = (codePoint << 6) | (next & 0x3f)
    end += width
  }
  if (more === 0 || codePoint > 0x10ffff || (codePoint >= 0xd800 && codePoint <= 0xdfff)) return { text: String.fromCharCode(byte), end: at + width }
  return { text: String.fromCodePoint(codePoint), end }
}

const SIMPLE_ESCAPES: Readonly<Record<string, string>> = { '\\': '\\', '/': '/', '"': '"', "'": "'", n: '\n', r: '\n', t: '\t' }

/** `\uXXXX`, `\u{X…}`, `\UXXXXXXXX`, `\xXX`, and the one-letter escapes of JSON and JavaScript (`\\`, `\/`, `\n`). */
function backslashEscape(src: string, at: number): Decoded | undefined {
  const letter = src[at + 1]
  if (letter === undefined) return undefined
  if (letter === 'u' && src[at + 2] === '{') {
    const close = src.indexOf('}', at + 3)
    const digits = close < 0 ? '' : src.slice(at + 3, close).replace(/^0+(?=.)/, '')
    if (digits.length === 0 || digits.length > 6 || !/^[0-9a-fA-F]+$/.test(digits)) return undefined
    return codePointText(parseInt(digits, 16), close + 1)
  }
  if (letter === 'u') {
    const unit = hexAt(src, at + 2, 4)
    return unit < 0 ? undefined : { text: String.fromCharCode(unit), end: at + 6 }
  }
  if (letter === 'U') {
    const codePoint = hexAt(src, at + 2, 8)
    return codePoint < 0 ? undefined : codePointText(codePoint, at + 10)
  }
  if (letter === 'x') return byteEscape(src, at, 2)
  const simple = SIMPLE_ESCAPES[letter]
  return simple === undefined ? undefined : { text: simple, end: at + 2 }
}

function codePointText(codePoint: number, end: number): Decoded | undefined {
  if (codePoint > 0x10ffff) return undefined
  return { text: String.fromCodePoint(codePoint), end }
}

const NAME = /[A-Za-z][A-Za-z0-9]{0,31}/y

/** `&#x…;` and `&#…;` with any number of leading zeros, the `;` optional as browsers allow; named entities. */
function entity(src: string, at: number): Decoded | undefined {
  if (src[at + 1] === '#') {
    const hex = src[at + 2] === 'x' || src[at + 2] === 'X'
    let k = at + (hex ? 3 : 2)
    const firstDigit = k
    while (src[k] === '0') k++
    let value = 0
    let significant = 0
    for (;;) {
      const code = src.charCodeAt(k)
      const digit = hex ? hexValue(code) : code >= 0x30 && code <= 0x39 ? code - 0x30 : -1
      if (digit < 0) break
      value = value * (hex ? 16 : 10) + digit
      significant++
      k++
      if (significant > 8) return undefined
    }
    if (k === firstDigit) return undefined
    const end = src[k] === ';' ? k + 1 : k
    // A browser shows U+FFFD for a number past Unicode, a surrogate or zero; the view keeps what is
    // written, digits that may be a secret's first characters among them.
    if (value === 0 || value > 0x10ffff || (value >= 0xd800 && value <= 0xdfff)) return undefined
    return { text: String.fromCodePoint(value), end }
  }
  NAME.lastIndex = at + 1
  const name = NAME.exec(src)?.[0]
  if (name === undefined) return undefined
  const named = NAMED_ENTITIES[name]
  if (named !== undefined && src[at + 1 + name.length] === ';') return { text: named, end: at + 2 + name.length }
  for (const legacy of LEGACY_ENTITIES) if (name.startsWith(legacy)) return { text: NAMED_ENTITIES[legacy]!, end: at + 1 + legacy.length }
  return undefined
}
