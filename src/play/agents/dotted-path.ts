/**
 * Dotted paths into a parsed JSON answer, as convy.yml's `reply` and `tokens` are written:
 * `data.answer`, `choices.0.message.content`. A segment indexes an array when the value there is an
 * array, and names an object key otherwise.
 */
export type PathLookup = { found: true; value: unknown } | { found: false; problem: string }

export function lookupPath(root: unknown, path: string): PathLookup {
  let current = root
  const walked: string[] = []
  // Named only when a lookup fails: this runs on every answer of every turn.
  const where = () => (walked.length === 0 ? 'the answer' : `"${walked.join('.')}"`)
  for (const segment of path.split('.')) {
    if (Array.isArray(current)) {
      if (!/^\d+$/.test(segment)) return { found: false, problem: `${where()} is an array, and "${segment}" is not an index` }
      const index = Number(segment)
      if (index >= current.length) return { found: false, problem: `${where()} has ${current.length} item(s), so no index ${index}` }
      current = current[index]
    } else if (current !== null && typeof current === 'object') {
      if (!Object.hasOwn(current, segment)) {
        const keys = Object.keys(current)
        return { found: false, problem: `${where()} has no key "${segment}" (${keys.length === 0 ? 'it is empty' : `it has: ${keys.join(', ')}`})` }
      }
      current = (current as Record<string, unknown>)[segment]
    } else {
      return { found: false, problem: `${where()} is ${describeJsonType(current)}, not an object or array` }
    }
    walked.push(segment)
  }
  return { found: true, value: current }
}

export function describeJsonType(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'an array'
  if (typeof value === 'object') return 'an object'
  return `a ${typeof value}`
}
