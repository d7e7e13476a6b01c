/**
 * A secret's bytes as base64, base32 and hex, as they appear inside longer encoded data (an echoed
 * `Basic` header, a JWT's payload, a dump). Hex is byte for byte; base64 carries a byte's bits at one
 * of three offsets and base32 at one of five, so each offset gives its run of characters that depend
 * on the secret alone: whatever comes before or after, those characters are the same.
 */
export interface BinaryForm {
  text: string
  /** Hex and base32 are read in either case; base64 only as written. */
  caseless: boolean
}

/** Shorter runs are not searched: eight base64 characters are six bytes of the secret. */
export const SHORTEST_BINARY_FORM = 8

export function binaryForms(bytes: Buffer): BinaryForm[] {
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
