import { isAlias, isMap, isScalar, isSeq, LineCounter, parseDocument, visit, type Document, type Node } from 'yaml'
import type * as z from '../shared/zod.ts'
import { FileError } from '../shared/errors.ts'
import { didYouMean } from './did-you-mean.ts'

/**
 * A YAML file parsed once, keeping positions, so every later error can name the file and the line of
 * the value it is about.
 */
export interface YamlFile {
  /** As shown to users: relative to the project. */
  name: string
  data: unknown
  lineOf(path: readonly PropertyKey[]): number | undefined
  /** The line of a key itself (not its value), for "unknown key" errors. */
  lineOfKey(parentPath: readonly PropertyKey[], key: string): number | undefined
}

export function parseYamlFile(name: string, text: string): YamlFile {
  const parsed = parse(name, text)
  return { name, data: toData(name, parsed.doc, parsed.lineCounter), lineOf: parsed.lineOf, lineOfKey: parsed.lineOfKey }
}

/** An object posing as a parsed file (run()'s options, inline scenarios): no lines, so errors name the key path only. */
export function objectFile(name: string, data: unknown): YamlFile {
  return { name, data, lineOf: () => undefined, lineOfKey: () => undefined }
}

interface Parsed {
  doc: Document
  lineCounter: LineCounter
  lineOf: YamlFile['lineOf']
  lineOfKey: YamlFile['lineOfKey']
}

function parse(name: string, text: string): Parsed {
  const lineCounter = new LineCounter()
  const doc = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: true })
  const first = doc.errors[0]
  if (first) {
    const line = lineCounter.linePos(first.pos[0]).line
    throw new FileError(name, line, `not valid YAML: ${first.message.split('\n')[0]}`)
  }
  const lineOf = (path: readonly PropertyKey[]): number | undefined => {
    // Walk down as far as the path exists; an error about a missing key points at its parent.
    let node: unknown = doc.contents
    for (const segment of path) {
      const next = isMap(node) || isSeq(node) ? (node.get(segment as never, true) as unknown) : undefined
      if (next === undefined || next === null) break
      node = next
    }
    const range = (node as Node | null)?.range
    return range ? lineCounter.linePos(range[0]).line : undefined
  }
  const lineOfKey = (parentPath: readonly PropertyKey[], key: string): number | undefined => {
    const parent = parentPath.length === 0 ? doc.contents : doc.getIn(parentPath as unknown[], true)
    const pair = isMap(parent) ? parent.items.find((p) => isScalar(p.key) && p.key.value === key) : undefined
    const range = (pair?.key as Node | undefined)?.range
    return range ? lineCounter.linePos(range[0]).line : lineOf(parentPath)
  }
  return { doc, lineCounter, lineOf, lineOfKey }
}

/** Aliases past this many expansions are refused (yaml's own check): a few lines can expand to gigabytes. */
export const MAX_ALIAS_COUNT = 100

function toData(name: string, doc: Document, lineCounter: LineCounter): unknown {
  try {
    return doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT }) as unknown
  } catch (error) {
    if (!(error instanceof ReferenceError)) throw error
    let line: number | undefined
    visit(doc, {
      Alias(_key, node) {
        if (isAlias(node) && node.range) line = lineCounter.linePos(node.range[0]).line
        return visit.BREAK
      },
    })
    throw new FileError(name, line ?? 1, `its aliases (*name) expand too far (over ${MAX_ALIAS_COUNT} copies); write the values out instead`)
  }
}

/**
 * Turns zod issues into errors a person can act on: the file, the line, the key path, and words
 * instead of zod's jargon ("unknown key `judeg` — did you mean `judge`?").
 */
export function issuesToErrors(
  file: YamlFile,
  issues: readonly z.core.$ZodIssue[],
  basePath: readonly PropertyKey[] = [],
  knownKeys?: (path: readonly PropertyKey[]) => readonly string[],
  /** Values that came from the environment are masked: an error must not print a secret. */
  mask: (text: string) => string = (text) => text,
): FileError[] {
  // A required key next to an unknown one that is its misspelling (`bdy:` for `body:`) is one mistake:
  // said once, as the unknown key with its hint.
  const misspelt = new Set<string>()
  for (const issue of issues) {
    if (issue.code !== 'unrecognized_keys') continue
    const path = [...basePath, ...issue.path]
    const known = knownKeys?.(path) ?? []
    for (const key of issue.keys) {
      const hint = didYouMean(key, known)
      if (hint !== undefined) misspelt.add(JSON.stringify([...path, hint].map(String)))
    }
  }
  const errors = issues.flatMap((issue) => {
    const path = [...basePath, ...issue.path]
    if (issue.code === 'invalid_type' && issue.input === undefined && misspelt.has(JSON.stringify(path.map(String)))) return []
    const where = path.length ? `${path.join('.')}: ` : ''
    if (issue.code === 'unrecognized_keys') {
      // Every unknown key is a problem of its own, with its own line.
      const known = knownKeys?.(path) ?? []
      const list = known.length ? ` (known keys: ${known.join(', ')})` : ''
      return issue.keys.map((key) => {
        const hint = didYouMean(key, known)
        return new FileError(file.name, file.lineOfKey(path, key), `${where}unknown key \`${key}\`${hint ? ` — did you mean \`${hint}\`?` : list}`)
      })
    }
    return [new FileError(file.name, file.lineOf(path), mask(`${where}${describeIssue(issue)}`))]
  })
  // In the file's order, as a reader fixes them.
  return errors.sort((a, b) => (a.line ?? 0) - (b.line ?? 0))
}

function describeIssue(issue: z.core.$ZodIssue): string {
  switch (issue.code) {
    case 'invalid_type':
      if (issue.input === undefined) return `is required (${issue.expected})`
      if (issue.input === null) return `is empty; expected ${article(issue.expected)} (an unquoted # starts a YAML comment: quote the value)`
      return `expected ${article(issue.expected)}, got ${describeValue(issue.input)}`
    case 'too_small':
      if (issue.origin === 'string') return 'must not be empty'
      if (issue.origin === 'array') return `needs at least ${String(issue.minimum)} item(s)`
      // A bound the value may not reach (`timeout` above 0) is said so: "at least 0" would allow 0.
      return issue.inclusive === false ? `must be more than ${String(issue.minimum)}` : `must be at least ${String(issue.minimum)}`
    case 'too_big':
      if (issue.origin === 'array') return `has ${Array.isArray(issue.input) ? issue.input.length : 'too many'} items; at most ${String(issue.maximum)} are allowed`
      return issue.inclusive === false ? `must be less than ${String(issue.maximum)}` : `must be at most ${String(issue.maximum)}`
    case 'invalid_format':
      // A pattern's own message says what is allowed; "is not a valid regex" would blame the user's regex.
      if (issue.format === 'regex') return `${describeValue(issue.input)}: ${issue.message}`
      return issue.format === 'url' ? `is not a URL: ${describeValue(issue.input)}` : `is not a valid ${issue.format}`
    case 'invalid_value':
      return `must be one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}`
    default:
      return issue.message
  }
}

function article(type: string): string {
  return /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`
}

function describeValue(value: unknown): string {
  if (Array.isArray(value)) return 'a list'
  if (typeof value === 'object' && value !== null) return 'a mapping'
  const text = JSON.stringify(value) ?? String(value)
  return text.length > 60 ? `${text.slice(0, 57)}...` : text
}
