/**
 * The plain YAML most convy.yml and scenario files are written in, read without the `yaml` package:
 * block mappings and lists nested by indentation, one-line `[a, b]` lists and `{ k: v }` mappings,
 * plain and quoted text, literal blocks of text (`|`, `|-`), whole and decimal numbers, true/false,
 * comments. The `yaml` package costs about 50 ms to load and builds a full document for each file;
 * with hundreds of scenario files that was most of convy-ci's start-up (bench/runner.ts,
 * docs/performance.md). It is loaded only for a file this reader declines.
 *
 * It answers only when it is certain to give what `yaml` gives, line numbers for errors included (a
 * property test holds it to that): anything else — a folded block (`>`) or one with a `+` or an
 * indentation number, a quoted escape, a value YAML might read as a number, null or boolean other
 * than plain digits, decimals and true/false, anchors, tags, a value running onto a second line,
 * nested one-line collections, a repeated key — returns undefined, and the file goes to `yaml`.
 */
export interface SimpleYaml {
  data: unknown
  /** The line of the value at `path`, or of the deepest part of it that exists (as yaml-file.ts). */
  lineOf(path: readonly PropertyKey[]): number | undefined
  /** The line of a key itself, or lineOf(parentPath) when there is no such key. */
  lineOfKey(parentPath: readonly PropertyKey[], key: string): number | undefined
}

/** Where a value starts, and for collections where each part is. */
interface Place {
  line: number
  keys?: Map<string, { keyLine: number; value: Place }>
  items?: Place[]
}

interface Line {
  indent: number
  content: string
  /** 1-based, as in messages. */
  number: number
}

/** Thrown inside the reader to decline a file; never leaves this module. */
const DECLINE = Symbol('decline')

export function readSimpleYaml(text: string): SimpleYaml | undefined {
  if (/[\t\r\\]|^\uFEFF/.test(text)) return undefined
  const lines: Line[] = []
  text.split('\n').forEach((line, index) => {
    const content = line.trimStart()
    if (content !== '' && !content.startsWith('#')) lines.push({ indent: line.length - content.length, content, number: index + 1 })
  })
  // A file of comments alone is null to yaml, not an empty mapping; a top level indented or a list
  // is left to yaml too.
  if (lines.length === 0 || lines[0]!.indent !== 0) return undefined
  try {
    const reader = new Reader(lines, text)
    const root = reader.mapping(0)
    if (reader.at < lines.length) return undefined
    return { data: root.value, lineOf: (path) => lineOf(root.place, path), lineOfKey: (parentPath, key) => lineOfKey(root.place, parentPath, key) }
  } catch (error) {
    if (error === DECLINE) return undefined
    throw error
  }
}

function decline(): never {
  throw DECLINE
}

interface Read {
  value: unknown
  place: Place
}

class Reader {
  at = 0
  /** Every line of the file, blank and comment lines included: a block of text keeps them. */
  private readonly raw: string[]
  constructor(
    private readonly lines: Line[],
    private readonly text: string,
  ) {
    this.raw = text.split('\n')
  }

  /** A block mapping whose keys sit at `indent`, starting at the current line. */
  mapping(indent: number, first?: Line): Read {
    const data: Record<string, unknown> = {}
    const keys = new Map<string, { keyLine: number; value: Place }>()
    const start = first ?? this.lines[this.at]!
    for (let line: Line | undefined = start; line !== undefined && line.indent === indent; line = this.lines[this.at]) {
      if (line !== start && (line.content.startsWith('- ') || line.content === '-')) break
      const entry = keyValue(line.content)
      if (!entry || keys.has(entry.key)) decline()
      this.at++
      let value: Read
      if (entry.rest === '') value = this.nested(indent, line)
      else if (entry.rest === '|' || entry.rest === '|-') value = this.literal(indent, line, entry.rest === '|-')
      else {
        value = { value: inline(entry.rest), place: { line: line.number } }
        // A value on its own line does not continue on the next one.
        if ((this.lines[this.at]?.indent ?? -1) > indent) decline()
      }
      data[entry.key] = value.value
      keys.set(entry.key, { keyLine: line.number, value: value.place })
    }
    const next = this.lines[this.at]
    if (next !== undefined && next.indent > indent) decline()
    return { value: data, place: { line: start.number, keys } }
  }

  /**
   * `key: |` (or `|-`): the lines below that are indented deeper than the key, as written, minus the
   * first one's indentation; `|` keeps one final line break, `|-` none. Blank lines inside are kept;
   * a `#` line inside is text. Leading blank lines, a blank line holding spaces, and a block that ends
   * the file without a line break are left to yaml.
   */
  private literal(indent: number, keyLine: Line, strip: boolean): Read {
    const raw = this.raw
    const first = keyLine.number
    const firstLine = raw[first] ?? ''
    const blockIndent = firstLine.length - firstLine.trimStart().length
    if (firstLine.trim() === '' || blockIndent <= indent) decline()
    let end = first
    while (end < raw.length) {
      const line = raw[end]!
      if (line === '') {
        end++
        continue
      }
      if (line.trim() === '') decline()
      if (line.length - line.trimStart().length < blockIndent) break
      end++
    }
    // Trailing blank lines belong to no one: they are dropped (clip and strip alike).
    let last = end
    while (last > first && raw[last - 1] === '') last--
    if (last === raw.length && !this.text.endsWith('\n')) decline()
    const body = raw.slice(first, last).map((line) => line.slice(blockIndent)).join('\n')
    while ((this.lines[this.at]?.number ?? Infinity) <= last) this.at++
    return { value: strip ? body : `${body}\n`, place: { line: keyLine.number } }
  }

  /** What follows `key:` with nothing after it: a deeper mapping, a list, or null. */
  private nested(indent: number, keyLine: Line): Read {
    const next = this.lines[this.at]
    const isItem = next !== undefined && (next.content.startsWith('- ') || next.content === '-')
    // A list may sit at the key's own indentation; a mapping must go deeper.
    if (next !== undefined && isItem && next.indent >= indent) return this.list(next.indent)
    if (next !== undefined && next.indent > indent) return this.mapping(next.indent)
    return { value: null, place: { line: keyLine.number } }
  }

  /** A block list whose dashes sit at `indent`. */
  private list(indent: number): Read {
    const values: unknown[] = []
    const items: Place[] = []
    const start = this.lines[this.at]!
    for (let line: Line | undefined = start; line !== undefined && line.indent === indent && line.content.startsWith('- '); line = this.lines[this.at]) {
      const rest = line.content.slice(2).trimStart()
      const column = indent + line.content.length - rest.length
      if (rest === '' || rest.startsWith('#') || rest.startsWith('- ') || rest === '-') decline()
      if (keyValue(rest)) {
        // `- key: value`, more keys lined up under the first.
        const item = this.mapping(column, { indent: column, content: rest, number: line.number })
        values.push(item.value)
        items.push(item.place)
        continue
      }
      this.at++
      values.push(inline(withoutComment(rest)))
      items.push({ line: line.number })
      if ((this.lines[this.at]?.indent ?? -1) > indent) decline()
    }
    // A lone `-` (an item on the lines below) is left to yaml.
    if (values.length === 0) decline()
    return { value: values, place: { line: start.number, items } }
  }
}

const KEY = /^([A-Za-z_][A-Za-z0-9_.-]*):(?: +(.*))?$/
/** Keys YAML reads as null or booleans, and one that would set an object's prototype. */
const SPECIAL_KEY = /^(?:null|Null|NULL|true|True|TRUE|false|False|FALSE|__proto__)$/

/** `key: value` or `key:` (rest ''); undefined when the line is not a plain key. */
function keyValue(text: string): { key: string; rest: string } | undefined {
  const match = KEY.exec(text)
  if (!match || SPECIAL_KEY.test(match[1]!)) return undefined
  return { key: match[1]!, rest: withoutComment(match[2] ?? '') }
}

/** The value with a trailing ` #…` comment and spaces removed; quotes and brackets are kept whole. */
function withoutComment(text: string): string {
  // `key:   # note`: the spaces before the # went with the key.
  if (text.startsWith('#')) return ''
  const end = text.startsWith('"') || text.startsWith("'") ? text.indexOf(text[0]!, 1) + 1 : text.startsWith('[') || text.startsWith('{') ? flowEnd(text) : 0
  if (end < 0 || (end === 0 && (text.startsWith('"') || text.startsWith("'")))) decline()
  if (end > 0) {
    const after = text.slice(end)
    if (after.trim() !== '' && !/^ +#/.test(after)) decline()
    return text.slice(0, end)
  }
  const hash = text.search(/ #/)
  return (hash < 0 ? text : text.slice(0, hash)).trimEnd()
}

/** Where a one-line `[…]` or `{…}` ends (after its bracket), skipping quoted text; -1 if not on this line. */
function flowEnd(text: string): number {
  for (let i = 1; i < text.length; i++) {
    const c = text[i]!
    if (c === '"' || c === "'") {
      const close = text.indexOf(c, i + 1)
      if (close < 0) return -1
      i = close
    } else if (c === '[' || c === '{') decline()
    else if (c === ']' || c === '}') return c === (text[0] === '[' ? ']' : '}') ? i + 1 : -1
  }
  return -1
}

/** A value on one line: a quoted or plain scalar, or a one-line list or mapping of them. */
function inline(text: string): unknown {
  if (text.startsWith('[')) return flowItems(text).map((item) => scalar(item, true))
  if (text.startsWith('{')) {
    const data: Record<string, unknown> = {}
    for (const item of flowItems(text)) {
      const match = /^([A-Za-z_][A-Za-z0-9_.-]*): +(.+)$/.exec(item)
      if (!match || SPECIAL_KEY.test(match[1]!) || Object.hasOwn(data, match[1]!)) decline()
      data[match[1]!] = scalar(match[2]!, true)
    }
    return data
  }
  return scalar(text, false)
}

/** The items between the brackets, split at commas outside quotes; an empty item is declined. */
function flowItems(text: string): string[] {
  const inner = text.slice(1, -1).trim()
  if (inner === '') return []
  const items: string[] = []
  let from = 0
  for (let i = 0; i <= inner.length; i++) {
    const c = inner[i]
    if (c === '"' || c === "'") {
      i = inner.indexOf(c, i + 1)
      if (i < 0) decline()
    } else if (c === ',' || c === undefined) {
      const item = inner.slice(from, i).trim()
      if (item === '') decline()
      items.push(item)
      from = i + 1
    }
  }
  return items
}

/** Plain text YAML would read as something other than a string (YAML 1.2 core schema), or could misread. */
const NOT_PLAIN_TEXT = /^(?:[-?:,[\]{}#&*!|>'"%@`]|[+.0-9]|(?:~|null|Null|NULL|true|True|TRUE|false|False|FALSE)$)/

function scalar(text: string, inFlow: boolean): unknown {
  if (text === '') decline()
  if (text.startsWith('"') || text.startsWith("'")) {
    const quote = text[0]!
    const body = text.slice(1, -1)
    // One line, no escapes, no quote of its own kind inside.
    if (text.length < 2 || !text.endsWith(quote) || body.includes(quote)) decline()
    return body
  }
  // Whole numbers and plain decimals (prices: [0.4, 1.6]) read as YAML reads them; exponents,
  // signs, leading zeros and the like are left to yaml.
  if (/^(?:0|[1-9][0-9]{0,14})(?:\.[0-9]{1,15})?$/.test(text)) return Number(text)
  if (text === 'true' || text === 'false') return text === 'true'
  if (NOT_PLAIN_TEXT.test(text) || /: |:$|\s#/.test(text)) decline()
  if (inFlow && /[[\]{},:#]/.test(text)) decline()
  return text
}

function lineOf(root: Place, path: readonly PropertyKey[]): number | undefined {
  let place = root
  for (const segment of path) {
    const next = child(place, segment)
    if (next === undefined) break
    place = next
  }
  return place.line
}

function lineOfKey(root: Place, parentPath: readonly PropertyKey[], key: string): number | undefined {
  let parent: Place | undefined = root
  for (const segment of parentPath) parent = parent && child(parent, segment)
  return parent?.keys?.get(key)?.keyLine ?? lineOf(root, parentPath)
}

/** As yaml's `get`: a mapping by its (text) key, a list by an index given as a number or as digits. */
function child(place: Place, segment: PropertyKey): Place | undefined {
  if (place.keys) return typeof segment === 'string' ? place.keys.get(segment)?.value : undefined
  if (!place.items) return undefined
  const index = typeof segment === 'number' ? segment : typeof segment === 'string' && /^[0-9]+$/.test(segment) ? Number(segment) : -1
  return Number.isInteger(index) && index >= 0 ? place.items[index] : undefined
}
