import { createHash } from 'node:crypto'

/** JSON with object keys sorted, so equal values always hash the same. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => {
    if (v && typeof v === 'object' && !Array.isArray(v)) {
      return Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
    }
    return v
  })
}

export function sha256(text: string | Uint8Array): string {
  return createHash('sha256').update(text).digest('hex')
}

export function fingerprint(value: unknown): string {
  return sha256(canonicalJson(value))
}
