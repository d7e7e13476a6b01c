/**
 * What a reader's eye makes of one character, for the mask's view of a text (reader-view.ts):
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
export function readerChars(text: string): string {
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
export function readerForm(codePoint: number): string {
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
export const NAMED_ENTITIES: Readonly<Record<string, string>> = {
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
export const LEGACY_ENTITIES = new Set(['amp', 'AMP', 'lt', 'LT', 'gt', 'GT', 'quot', 'QUOT', 'nbsp', 'shy'])
