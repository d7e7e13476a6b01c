/**
 * A search for secrets in written text, in every form the hostile agent and gateway hand them back
 * in, written apart from the product's own mask and decoder on purpose: the text is first read as a
 * reader (or a careless clean-up) could see it: invisible characters dropped, HTML entities, `%xx` (either
 * case) and `\uXXXX` decoded; then each secret is looked for raw, in hex (either case) and in base64 at
 * each of the three offsets a secret can start at inside longer encoded data (an echoed `Basic` header).
 */
export function leaksOf(text: string, secrets: readonly string[]): string[] {
  const plain = readable(text)
  const lower = plain.toLowerCase()
  const found: string[] = []
  for (const secret of secrets) {
    const forms = [secret, Buffer.from(secret).toString('hex'), ...base64Forms(secret)]
    for (const form of forms) {
      const caseless = form === secret || /^[0-9a-f]+$/.test(form)
      if (text.includes(form) || plain.includes(form) || (caseless && lower.includes(form.toLowerCase()))) found.push(form)
    }
  }
  return found
}

function readable(text: string): string {
  // eslint-disable-next-line no-control-regex -- control characters are what a reader does not see
  const invisible = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\u00AD\u061C\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF]/g
  return text
    .replace(invisible, '')
    .replace(/&#[xX]([0-9a-fA-F]+);?/g, (_, h: string) => String.fromCodePoint(parseInt(h, 16)))
    .replace(/&#(\d+);?/g, (_, d: string) => String.fromCodePoint(Number(d)))
    .replaceAll('&amp;', '&')
    .replace(/\\u([0-9a-fA-F]{4})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)))
    .replace(/%([0-9a-fA-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)))
}

/** The base64 characters that carry the secret alone, at each offset (and base64url's alphabet). */
function base64Forms(secret: string): string[] {
  const bytes = Buffer.from(secret)
  const forms: string[] = []
  for (const offset of [0, 1, 2]) {
    const encoded = Buffer.concat([Buffer.alloc(offset), bytes]).toString('base64')
    const inner = encoded.slice(Math.ceil((offset * 8) / 6), Math.floor(((offset + bytes.length) * 8) / 6))
    forms.push(inner, inner.replaceAll('+', '-').replaceAll('/', '_'))
  }
  return [...new Set(forms)]
}
