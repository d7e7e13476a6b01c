import { INVISIBLE } from './invisible.ts'

/**
 * Text as a reader would see it once escapes are decoded and invisible characters dropped, with, for
 * each character seen, where it came from in the text. A secret may reach an output written in
 * escapes (a framework's error page shows request headers HTML-escaped, `&#x74;`; JSON writes
 * `\u0074`; a URL `%74` or `%7a`, in either case, for every byte or some) or split by a character a
 * later clean-up drops (`Cn4r<U+202E>y…`): the mask searches this view and masks the spans in the text.
 */
export interface DecodedView {
  text: string
  /** Where character i of `text` starts in the original text. */
  starts: number[]
  /** Where character i of `text` ends in the original text (exclusive). */
  ends: number[]
}

// One escape of one character: an HTML entity (named, decimal or hex), a JSON \uXXXX or a
// percent-encoded ASCII byte. Tried at every `&`, `\` and `%`.
const ESCAPE = /&(?:#[xX]([0-9a-fA-F]{1,6})|#([0-9]{1,7})|(amp|lt|gt|quot|apos));?|\\u([0-9a-fA-F]{4})|%([0-7][0-9a-fA-F])/y
const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" }

/** Whether the text holds anything the view would change: if not, a plain search is enough. */
export const MAY_HIDE = new RegExp(`[&%\\\\]|${INVISIBLE.source}`)

export function decodedView(text: string): DecodedView {
  const view: DecodedView = { text: '', starts: [], ends: [] }
  const characters: string[] = []
  let i = 0
  while (i < text.length) {
    const c = text[i]!
    let decoded = c
    let end = i + 1
    if (c === '&' || c === '\\' || c === '%') {
      ESCAPE.lastIndex = i
      const m = ESCAPE.exec(text)
      const code = m && (m[1] ?? m[4] ?? m[5] ? parseInt((m[1] ?? m[4] ?? m[5])!, 16) : m[2] ? parseInt(m[2], 10) : NAMED[m[3]!]!.codePointAt(0)!)
      if (m && code !== null && code <= 0x10ffff) {
        decoded = String.fromCodePoint(code)
        end = i + m[0].length
      }
    }
    if (!INVISIBLE.test(decoded)) {
      characters.push(decoded)
      for (let k = 0; k < decoded.length; k++) {
        view.starts.push(i)
        view.ends.push(end)
      }
    }
    i = end
  }
  view.text = characters.join('')
  return view
}
