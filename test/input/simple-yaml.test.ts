import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import fc from 'fast-check'
import { parseDocument } from 'yaml'
import { readSimpleYaml } from '../../src/input/simple-yaml.ts'
import { parseYamlFile } from '../../src/input/yaml-file.ts'

// The shortcut for plain scenario files may decline any file, but what it reads must be exactly what
// `yaml` reads: the property below builds files from the pieces scenario files are made of, the
// tricky ones included (numbers, nulls, colons, comments, quotes, odd indentation, repeated keys).

function byYaml(text: string): { data: unknown } | { error: string } {
  const doc = parseDocument(text, { prettyErrors: false, uniqueKeys: true })
  if (doc.errors[0]) return { error: doc.errors[0].message }
  return { data: doc.toJS({ maxAliasCount: 100 }) as unknown }
}

const words = ['hello', 'Ask about your order.', 'The agent answers', 'it is 1234', "it's", 'a: b', 'a:b', 'x #y', 'x#y', '#x', 'null', 'Null', '~', 'true', 'False', 'yes', '5', '05', '-1', '1.5', '.5', '0x1f', '1e3', '.inf', '-', '- x', '? x', '&a', '*a', '!t', '|', '>', '%x', '@x', '`x', '[a]', '{a: 1}', 'a, b', 'a]', 'é ☕', '', ' ', 'x  ', '"q"', "'q'", 'a"b', "a'b", 'a\\nb']
const word = fc.constantFrom(...words)
const quoted = fc.tuple(fc.constantFrom('"', "'"), word).map(([q, w]) => `${q}${w}${q}`)
const value = fc.oneof(word, quoted, fc.array(fc.oneof(word, quoted), { maxLength: 3 }).map((items) => `[${items.join(', ')}]`))
const comment = fc.constantFrom('', ' # note', '  #note', '#tight')
const key = fc.constantFrom('id', 'user', 'judge', 'checks', 'tags', 'max_turns', 'description', 'script', 'null', 'true', '__proto__', 'a-b', '"user"')
const indent = fc.constantFrom('', ' ', '  ', '   ', '    ')
const line = fc.oneof(
  fc.tuple(key, value, comment).map(([k, v, c]) => `${k}: ${v}${c}`),
  fc.tuple(key, comment).map(([k, c]) => `${k}:${c}`),
  fc.tuple(indent, value, comment).map(([i, v, c]) => `${i}- ${v}${c}`),
  fc.tuple(indent, key, value, comment).map(([i, k, v, c]) => `${i}- ${k}: ${v}${c}`),
  fc.tuple(indent, key, value).map(([i, k, v]) => `${i}${k}: ${v}`),
  fc.constantFrom('', '# a comment', '  # indented comment', '---', '  continued text', '\t- tab', 'user: |', '  block text'),
)
const file = fc.array(line, { minLength: 0, maxLength: 8 }).map((lines) => `${lines.join('\n')}\n`)
// Files shaped like scenario files (distinct keys, lists lined up), with the same tricky values.
const item = fc.oneof(
  value.map((v) => [v]),
  fc.tuple(key, value, fc.boolean(), comment).map(([k, v, fatal, c]) => [`${k}: ${v}${c}`, ...(fatal ? ['  fatal: true'] : [])]),
)
const entry = (k: string) =>
  fc.oneof(
    fc.tuple(value, comment).map(([v, c]) => [`${k}: ${v}${c}`]),
    fc.tuple(fc.constantFrom('', '  '), fc.array(item, { minLength: 0, maxLength: 3 })).map(([i, items]) => [
      `${k}:`,
      ...items.flatMap(([first, ...more]) => [`${i}- ${first}`, ...more.map((m) => `${i}${m}`)]),
    ]),
  )
const shaped = fc
  .uniqueArray(key, { minLength: 1, maxLength: 5 })
  .chain((keys) => fc.tuple(...keys.map(entry)))
  .map((entries) => `${entries.flat().join('\n')}\n`)

describe('plain YAML read without the parser', () => {
  test('whatever it reads, yaml reads the same (and it declines what yaml rejects)', () => {
    let read = 0
    fc.assert(
      fc.property(fc.oneof(file, shaped), (text) => {
        const simple = readSimpleYaml(text)
        if (simple === undefined) return
        read++
        const expected = byYaml(text)
        assert.ok('data' in expected, `yaml rejects what the shortcut read (${JSON.stringify(text)}): ${'error' in expected ? expected.error : ''}`)
        assert.deepEqual(simple, expected.data, JSON.stringify(text))
      }),
      { numRuns: 3000 },
    )
    // The property means something only if the shortcut reads a good share of the files.
    assert.ok(read > 100, `only ${read} files read`)
  })

  test('scenario files as people write them are read directly', () => {
    const files = [
      'max_turns: 5\nuser: Ask about your order.\njudge: [The agent answers]\n',
      'id: off-topic\nscript:\n  - what\'s the weather like in Paris?\nchecks:\n  - regex: "orders.*refunds"      # it says what it can help with\n  - not_contains: sunny\n    fatal: true\ntags: [scope]\n',
      '# a comment\ndescription:\njudge:\n- first claim\n- second claim\n',
    ]
    for (const text of files) {
      const simple = readSimpleYaml(text)
      assert.ok(simple, text)
      assert.deepEqual(simple, (byYaml(text) as { data: unknown }).data)
    }
  })

  test('what it declines goes to yaml: block scalars, escapes, numbers it might misread, empty files', () => {
    for (const text of ['user: |\n  text\n', 'user: "a\\tb"\n', 'max_turns: 05\n', 'user: 1.5\n', '', '# only a comment\n', 'user: a\nuser: b\n', 'user: hi\r\n']) {
      assert.equal(readSimpleYaml(text), undefined, JSON.stringify(text))
    }
  })

  test('a file read directly still gives line numbers for errors', () => {
    const file = parseYamlFile('s.yml', 'user: hi\n\nchecks:\n  - contains: x\n  - regex: y\n')
    assert.deepEqual(file.data, { user: 'hi', checks: [{ contains: 'x' }, { regex: 'y' }] })
    assert.equal(file.lineOf(['checks', 1, 'regex']), 5)
    assert.equal(file.lineOfKey([], 'checks'), 3)
  })
})
