/**
 * The placeholders of a served tool's answers and `sets:` (docs/tools.md): `{order_id}` an argument
 * of the call (dotted for nested ones), `{context.KEY}` the attempt's context, `{state.PATH}` the
 * attempt's world state. A path may hold a placeholder of its own (`{state.refunds.{order_id}}`),
 * filled first and taken as one key whatever dots its value has. A string that is exactly one
 * placeholder takes the value as it is (a map stays a map); inside longer text a value is written as
 * text (JSON for a map or a list), and a missing one as nothing. A missing value on its own is null.
 * Braces that do not make a placeholder (`{ }`, `{not a name}`) stay as written.
 */

/** One segment of a path: a key as written, or a placeholder whose value is the key. */
export type PathSegment = string | Placeholder
export interface Placeholder {
  /** The first segment: `context`, `state`, or an argument's name. */
  root: string
  path: PathSegment[]
}
export type TemplatePart = string | Placeholder

const NAME = /^[A-Za-z_][A-Za-z0-9_-]*$/

/** The parts of a text: literal text and placeholders, in order. */
export function parseTemplate(text: string): TemplatePart[] {
  const parts: TemplatePart[] = []
  let literal = ''
  let i = 0
  while (i < text.length) {
    if (text[i] === '{') {
      const end = closingBrace(text, i)
      const placeholder = end < 0 ? null : parsePlaceholder(text.slice(i + 1, end))
      if (placeholder) {
        if (literal) parts.push(literal)
        literal = ''
        parts.push(placeholder)
        i = end + 1
        continue
      }
    }
    literal += text[i]
    i++
  }
  if (literal) parts.push(literal)
  return parts
}

function closingBrace(text: string, open: number): number {
  let depth = 0
  for (let i = open; i < text.length; i++) {
    if (text[i] === '{') depth++
    else if (text[i] === '}' && --depth === 0) return i
  }
  return -1
}

function parsePlaceholder(inner: string): Placeholder | null {
  const segments = splitDots(inner)
  if (segments === null || segments.length === 0) return null
  const parsed: PathSegment[] = []
  for (const segment of segments) {
    if (segment.startsWith('{') && segment.endsWith('}')) {
      const nested = parsePlaceholder(segment.slice(1, -1))
      if (!nested) return null
      parsed.push(nested)
    } else if (NAME.test(segment) || /^[0-9]+$/.test(segment) || (parsed.length > 0 && /^[^{}\s]+$/.test(segment))) {
      parsed.push(segment)
    } else {
      return null
    }
  }
  const [root, ...path] = parsed
  if (typeof root !== 'string' || !NAME.test(root)) return null
  return { root, path }
}

/** `a.{b.c}.d` → ['a', '{b.c}', 'd']; null when the braces do not pair. */
function splitDots(inner: string): string[] | null {
  const segments: string[] = []
  let depth = 0
  let current = ''
  for (const char of inner) {
    if (char === '{') depth++
    if (char === '}') depth--
    if (depth < 0) return null
    if (char === '.' && depth === 0) {
      segments.push(current)
      current = ''
    } else current += char
  }
  if (depth !== 0) return null
  segments.push(current)
  return segments.some((s) => s === '') ? null : segments
}

/** Every placeholder in a value (strings in maps and lists too, keys included), nested ones included. */
export function placeholdersIn(value: unknown): Placeholder[] {
  const found: Placeholder[] = []
  const visit = (p: Placeholder) => {
    found.push(p)
    for (const segment of p.path) if (typeof segment !== 'string') visit(segment)
  }
  const walk = (v: unknown) => {
    if (typeof v === 'string') {
      for (const part of parseTemplate(v)) if (typeof part !== 'string') visit(part)
    }
    else if (Array.isArray(v)) v.forEach(walk)
    else if (v !== null && typeof v === 'object') {
      for (const [key, item] of Object.entries(v)) {
        walk(key)
        walk(item)
      }
    }
  }
  walk(value)
  return found
}

/** Where placeholders find their values. */
export interface TemplateScope {
  arguments: unknown
  context: Readonly<Record<string, unknown>>
  state: Readonly<Record<string, unknown>>
}

/** The value a placeholder names, or undefined. */
export function lookup(placeholder: Placeholder, scope: TemplateScope): unknown {
  const keys = placeholder.path.map((segment) => (typeof segment === 'string' ? segment : asKey(lookup(segment, scope))))
  const base = placeholder.root === 'context' ? scope.context : placeholder.root === 'state' ? scope.state : undefined
  let value: unknown = base ?? (isRecord(scope.arguments) ? scope.arguments[placeholder.root] : undefined)
  for (const key of keys) {
    if (key === undefined) return undefined
    if (Array.isArray(value) && /^[0-9]+$/.test(key)) value = value[Number(key)]
    else if (isRecord(value) && Object.hasOwn(value, key)) value = value[key]
    else return undefined
  }
  return value
}

function asKey(value: unknown): string | undefined {
  if (typeof value === 'string') return value
  if (typeof value === 'number' || typeof value === 'boolean') return String(value)
  return undefined
}

/** A string filled in: one placeholder alone gives its value (null when missing), else text. */
export function fillString(text: string, scope: TemplateScope): unknown {
  const parts = parseTemplate(text)
  if (parts.length === 1 && typeof parts[0] !== 'string') return lookup(parts[0]!, scope) ?? null
  if (parts.every((part) => typeof part === 'string')) return text
  return parts.map((part) => (typeof part === 'string' ? part : asText(lookup(part, scope)))).join('')
}

/** Text only (keys, paths): a value that is not text is written as JSON. */
export function fillText(text: string, scope: TemplateScope): string {
  return parseTemplate(text)
    .map((part) => (typeof part === 'string' ? part : asText(lookup(part, scope))))
    .join('')
}

function asText(value: unknown): string {
  if (value === undefined || value === null) return ''
  return typeof value === 'string' ? value : (JSON.stringify(value) ?? '')
}

/** A value with every string in it filled (keys of maps too). */
export function fillValue(value: unknown, scope: TemplateScope): unknown {
  if (typeof value === 'string') return fillString(value, scope)
  if (Array.isArray(value)) return value.map((item) => fillValue(item, scope))
  if (isRecord(value)) return Object.fromEntries(Object.entries(value).map(([key, item]) => [fillText(key, scope), fillValue(item, scope)]))
  return value
}

/**
 * A `sets:` key as a path: split at its dots first, then each segment filled, so an argument's value
 * is one key whatever it holds (`refunds.{order_id}` with "O.17" is refunds → "O.17").
 */
export function statePath(key: string, scope: TemplateScope): string[] {
  return (splitDots(key) ?? [key]).map((segment) => fillText(segment, scope))
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
}
