import { LEGACY_ENTITIES, NAMED_ENTITIES } from './reader-characters.ts'

/**
 * One escape decoded where it starts: `%XX` and `\xXX` bytes (UTF-8 sequences read whole), `\u`,
 * `\u{…}`, `\U` and the one-letter escapes of JSON and JavaScript, and HTML's entities. Each answers
 * the decoded text and where the escape ends, or undefined when what starts there is no escape. The
 * reader's view (reader-view.ts) decodes a text level by level with them.
 */
export interface Decoded {
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
export function byteEscape(src: string, at: number, prefix: 1 | 2): Decoded | undefined {
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
export function backslashEscape(src: string, at: number): Decoded | undefined {
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
export function entity(src: string, at: number): Decoded | undefined {
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
