/**
 * A search for secrets in written text, in every form the hostile agent and gateway hand them back
 * in, written apart from the product's own mask and decoder on purpose (regular expressions over the
 * whole text, not a map of spans): the text is first read as a reader (or a careless clean-up) could
 * see it: escapes decoded again and again until nothing changes (HTML entities with any number of
 * digits and a few names, `%xx` as UTF-8 bytes, `\uXXXX`, `\u{…}`, `\xXX`, `\\`, `\n`), NFKD, and every
 * character that shows as nothing (default-ignorable, format, combining, control) dropped; then each
 * secret is looked for raw, in hex and base32 (either case) and in base64 at each offset a secret can
 * start at inside longer encoded data, in that text and in it with its white space dropped.
 */
export function leaksOf(text: string, secrets: readonly string[]): string[] {
  // Every round of decoding is read: a secret may itself hold something that decodes (`%33`).
  const rounds = readableRounds(text)
  const where = [text, ...rounds]
  const joined = [text, ...rounds].map((t) => t.replace(/\s+/gu, ''))
  const found: string[] = []
  for (const secret of secrets) {
    const forms = [secret]
    for (const carried of [secret, encodeURIComponent(secret)]) {
      const bytes = Buffer.from(carried)
      forms.push(bytes.toString('hex'), ...base64Forms(bytes), ...base32Forms(bytes))
    }
    for (const form of new Set(forms)) {
      const caseless = /^[0-9a-f]+$/.test(form) || /^[A-Z2-7]+$/.test(form)
      if ([...where, ...(form.length >= 12 ? joined : [])].some((t) => t.includes(form) || (caseless && t.toLowerCase().includes(form.toLowerCase())))) found.push(form)
    }
  }
  return found
}

const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", sol: '/', nbsp: ' ', shy: '', NoBreak: '', zwj: '', zwnj: '', ZeroWidthSpace: '' }

/** The text as read after the last round of decoding. */
export function readable(text: string): string {
  return readableRounds(text).at(-1)!
}

function readableRounds(text: string): string[] {
  let current = visible(text)
  const rounds = [current]
  for (let round = 0; round < 10; round++) {
    const next = current
      .replace(/&#[xX]([0-9a-fA-F]+);?/g, (all, h: string) => fromCode(parseInt(h, 16), all))
      .replace(/&#(\d+);?/g, (all, d: string) => fromCode(Number(d), all))
      .replace(/&([A-Za-z]+);?/g, (all, name: string) => NAMED[name] ?? all)
      .replace(/&(amp|lt|gt|quot|nbsp|shy)(?!;)/g, (_, name: string) => NAMED[name]!)
      .replace(/(?:%[0-9a-fA-F]{2})+/g, utf8OrLatin1)
      // Left to right, as a JSON or JavaScript parser reads them: `\\` is one backslash.
      .replace(/\\(?:u\{([0-9a-fA-F]+)\}|u([0-9a-fA-F]{4})|(x[0-9a-fA-F]{2}(?:\\x[0-9a-fA-F]{2})*)|([\\/"'])|([nrt]))/g, (all, braced?: string, unit?: string, bytes?: string, itself?: string) =>
        braced ? fromCode(parseInt(braced, 16), all) : unit ? String.fromCharCode(parseInt(unit, 16)) : bytes ? utf8OrLatin1(`\\${bytes}`) : (itself ?? '\n'),
      )
    if (next === current) return rounds
    current = visible(next)
    rounds.push(current)
  }
  return rounds
}

/** NFKD, and every character that shows as nothing dropped (before decoding too: it would split an escape). */
function visible(text: string): string {
  // eslint-disable-next-line no-control-regex -- control characters are what a reader does not see
  return text.normalize('NFKD').replace(/[\p{Default_Ignorable_Code_Point}\p{Cf}\p{M}\u0000-\u0008\u000E-\u001F\u007F-\u009F]/gu, '')
}

function fromCode(code: number, all: string): string {
  return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : all
}

function utf8OrLatin1(run: string): string {
  const bytes = Buffer.from(run.replace(/%|\\x/g, ''), 'hex')
  const utf8 = bytes.toString('utf8')
  return utf8.includes('\uFFFD') ? bytes.toString('latin1') : utf8
}

/** The base64 characters that carry the secret alone, at each offset (and base64url's alphabet). */
function base64Forms(bytes: Buffer): string[] {
  const forms: string[] = []
  for (const offset of [0, 1, 2]) {
    const encoded = Buffer.concat([Buffer.alloc(offset), bytes]).toString('base64')
    const inner = encoded.slice(Math.ceil((offset * 8) / 6), Math.floor(((offset + bytes.length) * 8) / 6))
    forms.push(inner, inner.replaceAll('+', '-').replaceAll('/', '_'))
  }
  return forms
}

/** The same for base32, at each of its five offsets (an encoder of its own: RFC 4648's alphabet). */
function base32Forms(bytes: Buffer): string[] {
  const forms: string[] = []
  for (const offset of [0, 1, 2, 3, 4]) {
    const bits = [...Buffer.concat([Buffer.alloc(offset), bytes])].map((b) => b.toString(2).padStart(8, '0')).join('')
    const encoded = (bits.match(/.{1,5}/g) ?? []).map((b) => 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567'[parseInt(b.padEnd(5, '0'), 2)]).join('')
    forms.push(encoded.slice(Math.ceil((offset * 8) / 5), Math.floor(((offset + bytes.length) * 8) / 5)))
  }
  return forms.filter((form) => form.length >= 8)
}
