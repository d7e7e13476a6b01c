/**
 * The plain shape most scenario files have, read without the YAML parser: top-level `key: value`
 * lines, lists of values or of small mappings (`- regex: "…"` with `fatal: true` under it), one-line
 * `[a, b]` lists, comments. The `yaml` package builds a full document for each file, about 0.3 ms
 * even for three lines: with hundreds of scenario files that was most of convy-ci's start-up
 * (bench/runner.ts, README "Performance").
 *
 * It answers only when it is certain to give what `yaml` gives (a property test holds it to that):
 * anything else — a block scalar (`|`, `>`), a quoted escape, a value YAML might read as a number,
 * null or boolean other than plain digits and true/false, anchors, tags, a value running onto a
 * second line, an unusual indentation, a repeated key — returns undefined, and the file goes to
 * `yaml`, which also gives the positions for error messages.
 */
export function readSimpleYaml(text: string): Record<string, unknown> | undefined {
  if (/[\t\r\\]|^\uFEFF/.test(text)) return undefined
  const data: Record<string, unknown> = {}
  /** The key whose value is the list being read (its value was empty on its own line). */
  let listKey: string | undefined
  let list: unknown[] | undefined
  let itemIndent = -1
  /** The mapping of the last list item, when it is one (`- regex: x`), and where its keys sit. */
  let item: Record<string, unknown> | undefined
  let itemKeyIndent = -1
  let empty = true
  for (const line of text.split('\n')) {
    const content = line.trimStart()
    if (content === '' || content.startsWith('#')) continue
    const indent = line.length - content.length
    empty = false
    if (content.startsWith('- ') || content === '-') {
      if (listKey === undefined || (itemIndent !== -1 && indent !== itemIndent) || (indent !== 0 && indent !== 2)) return undefined
      itemIndent = indent
      const rest = content.slice(2).trimStart()
      const entry = keyValue(rest)
      if (entry) {
        if (entry.value === undefined) return undefined
        item = { [entry.key]: entry.value.value }
        itemKeyIndent = indent + 2
        list!.push(item)
        continue
      }
      const value = scalarOrFlow(rest)
      if (value === undefined) return undefined
      item = undefined
      list!.push(value.value)
      continue
    }
    const entry = keyValue(content)
    if (!entry) return undefined
    if (indent === 0) {
      if (Object.hasOwn(data, entry.key)) return undefined
      item = undefined
      if (entry.value === undefined) {
        // Either a list follows, or the value is null; `finishList` decides.
        finishList()
        listKey = entry.key
        list = []
        itemIndent = -1
        data[entry.key] = null
      } else {
        finishList()
        data[entry.key] = entry.value.value
      }
      continue
    }
    // Another key of the last list item's mapping, lined up under its first.
    if (item === undefined || indent !== itemKeyIndent || entry.value === undefined || Object.hasOwn(item, entry.key)) return undefined
    item[entry.key] = entry.value.value
  }
  finishList()
  // A file of comments alone is null to yaml, not an empty mapping.
  return empty ? undefined : data

  function finishList(): void {
    if (listKey !== undefined && list!.length > 0) data[listKey] = list
    listKey = undefined
    list = undefined
  }
}

const KEY = /^([A-Za-z_][A-Za-z0-9_]*):(?: +(.*))?$/

/** `key: value` or `key:`; undefined when the line is not a plain key. */
function keyValue(text: string): { key: string; value: { value: unknown } | undefined } | undefined {
  const match = KEY.exec(text)
  if (!match) return undefined
  const key = match[1]!
  // Keys YAML reads as null or booleans, and one that would set an object's prototype.
  if (/^(?:null|Null|NULL|true|True|TRUE|false|False|FALSE|__proto__)$/.test(key)) return undefined
  const rest = withoutComment(match[2] ?? '')
  if (rest === undefined) return undefined
  if (rest === '') return { key, value: undefined }
  const value = scalarOrFlow(rest)
  return value === undefined ? undefined : { key, value }
}

/** A value on one line: a quoted or plain scalar, or a one-line list of them. */
function scalarOrFlow(text: string): { value: unknown } | undefined {
  const rest = withoutComment(text)
  if (rest === undefined || rest === '') return undefined
  if (rest.startsWith('[')) {
    if (!rest.endsWith(']')) return undefined
    const inner = rest.slice(1, -1).trim()
    if (inner === '') return { value: [] }
    const values: unknown[] = []
    for (const part of inner.split(',')) {
      const value = scalar(part.trim(), true)
      if (value === undefined) return undefined
      values.push(value.value)
    }
    return { value: values }
  }
  return scalar(rest, false)
}

/** A comment is ` #…` to the end of the line, outside quotes; trailing spaces go too. */
function withoutComment(text: string): string | undefined {
  if (text.startsWith('"') || text.startsWith("'")) {
    const quote = text[0]!
    const end = text.indexOf(quote, 1)
    if (end < 0) return undefined
    const after = text.slice(end + 1)
    if (after.trim() !== '' && !/^ +#/.test(after)) return undefined
    return text.slice(0, end + 1)
  }
  if (text.startsWith('[')) {
    // Quotes inside a one-line list could hide a `#` or a `,`: leave those to yaml.
    const end = text.indexOf(']')
    if (end < 0 || /["']/.test(text.slice(0, end))) return undefined
    const after = text.slice(end + 1)
    if (after.trim() !== '' && !/^ +#/.test(after)) return undefined
    return text.slice(0, end + 1)
  }
  const hash = text.search(/ #/)
  return (hash < 0 ? text : text.slice(0, hash)).trimEnd()
}

/** Plain text YAML would read as something other than a string (YAML 1.2 core schema), or could misread. */
const NOT_PLAIN_TEXT = /^(?:[-?:,[\]{}#&*!|>'"%@`]|[+.0-9]|(?:~|null|Null|NULL|true|True|TRUE|false|False|FALSE)$)/

function scalar(text: string, inFlow: boolean): { value: unknown } | undefined {
  if (text === '') return undefined
  if (text.startsWith('"') || text.startsWith("'")) {
    const quote = text[0]!
    const body = text.slice(1, -1)
    // One line, no escapes, no quote of its own kind inside.
    if (text.length < 2 || !text.endsWith(quote) || body.includes(quote)) return undefined
    return { value: body }
  }
  if (/^(?:0|[1-9][0-9]{0,14})$/.test(text)) return { value: Number(text) }
  if (text === 'true' || text === 'false') return { value: text === 'true' }
  if (NOT_PLAIN_TEXT.test(text) || /: |:$|\s#/.test(text)) return undefined
  if (inFlow && /[[\]{},:]/.test(text)) return undefined
  return { value: text }
}
