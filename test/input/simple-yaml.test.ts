import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import fc from 'fast-check'
import { parseDocument } from 'yaml'
import { readSimpleYaml } from '../../src/base/input/simple-yaml.ts'
import { parseWithYaml, parseYamlFile } from '../../src/base/input/yaml-file.ts'

// The direct reader may decline any file, but what it reads must be exactly what `yaml` reads, line
// numbers included: the properties below build files from the pieces scenario files and convy.yml
// are made of, the tricky ones included (numbers, nulls, colons, comments, quotes, odd indentation,
// repeated keys, nesting, one-line mappings).

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
        assert.deepEqual(simple.data, expected.data, JSON.stringify(text))
      }),
      { numRuns: 3000 },
    )
    // The property means something only if the shortcut reads a good share of the files.
    assert.ok(read > 100, `only ${read} files read`)
  })

  test('scenario files as people write them are read directly', () => {
    const files = [
      'max_turns: 5\nuser: Ask about your order.\njudge: [The agent answers]\n',
      '# Played by the simulated user.\nid: order-status\nuser: |\n  You ordered a book a week ago. Start vague: "where is my stuff?".\n\n  # not a comment: text\n    Your order number is 48213.\n\njudge:\n  - The assistant asked for the order number\ntags: [orders]\n',
      'id: off-topic\nscript:\n  - what\'s the weather like in Paris?\nchecks:\n  - regex: "orders.*refunds"      # it says what it can help with\n  - not_contains: sunny\n    fatal: true\ntags: [scope]\n',
      '# a comment\ndescription:\njudge:\n- first claim\n- second claim\n',
    ]
    for (const text of files) {
      const simple = readSimpleYaml(text)
      assert.ok(simple, text)
      assert.deepEqual(simple.data, (byYaml(text) as { data: unknown }).data)
    }
  })

  test('what it declines goes to yaml: folded blocks, escapes, numbers it might misread, empty files', () => {
    for (const text of ['user: >\n  text\n', 'user: |+\n  text\n\n', 'user: "a\\tb"\n', 'max_turns: 05\n', 'user: 1e3\n', 'user: .5\n', '', '# only a comment\n', 'user: a\nuser: b\n', 'user: hi\r\n']) {
      assert.equal(readSimpleYaml(text), undefined, JSON.stringify(text))
    }
  })

  test('a file read directly still gives line numbers for errors', async () => {
    const file = await parseYamlFile('s.yml', 'user: hi\n\nchecks:\n  - contains: x\n  - regex: y\n')
    assert.deepEqual(file.data, { user: 'hi', checks: [{ contains: 'x' }, { regex: 'y' }] })
    assert.equal(file.lineOf(['checks', 1, 'regex']), 5)
    assert.equal(file.lineOfKey([], 'checks'), 3)
  })

  test('nested files like convy.yml: the same data and the same line for every value and key', async () => {
    let read = 0
    await fc.assert(
      fc.asyncProperty(nestedFile, async (text) => {
        const simple = readSimpleYaml(text)
        if (simple === undefined) return
        read++
        const expected = byYaml(text)
        assert.ok('data' in expected, `yaml rejects what the shortcut read (${JSON.stringify(text)}): ${'error' in expected ? expected.error : ''}`)
        assert.deepEqual(simple.data, expected.data, JSON.stringify(text))
        const oracle = await parseWithYaml('x.yml', text)
        for (const path of pathsOf(expected.data)) {
          // Every path, one that goes on past it (errors about a missing key), and each key's own line.
          for (const probe of [path, [...path, 'missing'], [...path, 7]]) {
            assert.equal(simple.lineOf(probe), oracle.lineOf(probe), `lineOf ${JSON.stringify(probe)} in ${JSON.stringify(text)}`)
          }
          const key = path.at(-1)
          if (typeof key === 'string') assert.equal(simple.lineOfKey(path.slice(0, -1), key), oracle.lineOfKey(path.slice(0, -1), key), `lineOfKey ${JSON.stringify(path)} in ${JSON.stringify(text)}`)
          assert.equal(simple.lineOfKey(path, 'missing'), oracle.lineOfKey(path, 'missing'), `lineOfKey ${JSON.stringify([...path, 'missing'])} in ${JSON.stringify(text)}`)
        }
      }),
      { numRuns: 1500 },
    )
    assert.ok(read > 300, `only ${read} files read`)
  })

  test('a convy.yml as the README writes it is read directly, with its lines', async () => {
    const text = [
      '# models for the simulated user and the judge',
      'models:',
      '  base_url: ${OPENAI_BASE_URL}',
      '  api_key: ${OPENAI_API_KEY}',
      '  user: gpt-4.1-mini',
      '  judge: gpt-4.1',
      '  prices:                       # optional: dollars per million tokens',
      '    gpt-4.1-mini: [0.4, 1.6]',
      '    gpt-4.1: [2, 8]',
      '',
      'agents:',
      '  support-bot:',
      '    url: http://localhost:8080/chat',
      '    headers: { Authorization: "Bearer ${BOT_TOKEN}" }',
      '    body: { session_id: "{session}", message: "{text}" }',
      '    reply: data.answer',
      '    session: cookie   # keep the conversation',
      '',
    ].join('\n')
    const simple = readSimpleYaml(text)
    assert.ok(simple)
    assert.deepEqual(simple.data, (byYaml(text) as { data: unknown }).data)
    assert.equal(simple.lineOf(['agents', 'support-bot', 'body', 'message']), 15)
    assert.equal(simple.lineOfKey(['agents', 'support-bot'], 'session'), 17)
    assert.equal(simple.lineOf(['models', 'temperature']), 3)
  })
})

/** Every path to a value in parsed data, the root included. */
function pathsOf(data: unknown, path: (string | number)[] = []): (string | number)[][] {
  const inner = Array.isArray(data)
    ? data.flatMap((item, index) => pathsOf(item, [...path, index]))
    : typeof data === 'object' && data !== null
      ? Object.entries(data).flatMap(([key, value]) => pathsOf(value, [...path, key]))
      : []
  return [path, ...inner]
}

// Nested files: mappings and lists to three levels, at regular or odd indentation, lists at the key's
// own indentation or deeper, one-line mappings with quoted values, blank and comment lines between.
// Mostly what such files hold, sometimes a tricky piece: a file is read only if all of it is plain.
const mostly = <T,>(usual: fc.Arbitrary<T>, tricky: fc.Arbitrary<T>) => fc.oneof({ arbitrary: usual, weight: 12 }, { arbitrary: tricky, weight: 1 })
const nestedKey = mostly(fc.constantFrom('models', 'agents', 'bot', 'support-bot', 'gpt-4.1', 'url', 'body', 'reply', 'headers', 'a'), fc.constantFrom('null', '__proto__', 'x y', '"q"'))
const usualWord = fc.constantFrom('hello', 'Ask about your order.', '${BOT_URL}/api/chat', 'http://localhost:8080/chat', '{text}', 'data.answer', "it's", 'a:b', 'x#y', '5', '0.4', '12.50', 'true', 'é ☕')
const nestedWord = mostly(fc.oneof(usualWord, usualWord.map((w) => `"${w}"`)), fc.oneof(word, quoted))
const flowWord = mostly(fc.oneof(fc.constantFrom('hello', 'data.answer', '5', '1.6', 'true', 'é ☕'), usualWord.map((w) => `"${w}"`)), fc.oneof(word, quoted, usualWord))
const flowMapping = fc
  .uniqueArray(fc.tuple(nestedKey, flowWord), { maxLength: 3, selector: ([k]) => k })
  .map((pairs) => `{ ${pairs.map(([k, v]) => `${k}: ${v}`).join(', ')} }`)
const leaf = fc.oneof(nestedWord, nestedWord, flowMapping, fc.array(flowWord, { maxLength: 3 }).map((items) => `[${items.join(', ')}]`))
const nestedComment = mostly(fc.constantFrom('', '', ' # note'), comment)
const gap = fc.constantFrom([], [], [''], ['# note'], ['    # deep note'])
// A block of text (`key: |`) under its key: text, blank lines, lines indented further, a `#` that is
// text, trailing blank lines; sometimes a blank line holding spaces or a first line that is blank.
const literalLine = mostly(fc.constantFrom('Ask about your order.', 'Start vague: "where is my stuff?".', '  indented further', '# a hash that is text', 'it: has a colon', '- a dash', ''), fc.constantFrom('   ', ' \\ '))
const literal = fc.record({
  header: mostly(fc.constantFrom('|', '|-'), fc.constantFrom('>', '|+', '|2')),
  lines: fc.tuple(mostly(fc.constant('Give it only when asked.'), literalLine), fc.array(literalLine, { maxLength: 4 })).map(([first, more]) => [first, ...more]),
})
type Block = (indent: string) => fc.Arbitrary<string[]>
const mappingBlock = (depth: number): Block => (indent) =>
  fc
    .uniqueArray(
      fc.tuple(
        nestedKey,
        gap,
        fc.oneof(leaf.map((v) => ({ leaf: v })), literal.map((text) => ({ text })), ...(depth > 0 ? [fc.constant({ nested: true })] : [])),
        nestedComment,
        mostly(fc.constantFrom('  ', '    '), fc.constantFrom(' ', '')),
      ),
      { minLength: 1, maxLength: 4, selector: ([k]) => k },
    )
    .chain((entries) =>
      fc.tuple(
        ...entries.map(([k, g, value, c, step]) =>
          'leaf' in value
            ? fc.constant([...g, `${indent}${k}: ${value.leaf}${c}`])
            : 'text' in value
              ? fc.constant([...g, `${indent}${k}: ${value.text.header}${c}`, ...value.text.lines.map((line) => (line === '' ? '' : `${indent}${step || ' '}${line}`))])
              : fc.oneof(mappingBlock(depth - 1)(indent + step), listBlock(depth - 1)(indent + step), listBlock(depth - 1)(indent)).map((lines) => [...g, `${indent}${k}:${c}`, ...lines]),
        ),
      ),
    )
    .map((parts) => parts.flat())
const listBlock = (depth: number): Block => (indent) =>
  fc
    .array(
      fc.oneof(
        leaf.map((v) => [`${indent}- ${v}`]),
        fc.tuple(nestedKey, leaf, fc.option(fc.tuple(nestedKey, leaf)), mostly(fc.constant(' '), fc.constant('  '))).map(([k, v, more, space]) => [
          `${indent}-${space}${k}: ${v}`,
          ...(more ? [`${indent} ${space}${more[0]}: ${more[1]}`] : []),
        ]),
        ...(depth > 0 ? [fc.tuple(nestedKey, mappingBlock(depth - 1)(`${indent}    `)).map(([k, lines]) => [`${indent}- ${k}:`, ...lines])] : []),
      ),
      { minLength: 1, maxLength: 3 },
    )
    .map((items) => items.flat())
const nestedFile = mappingBlock(2)('').map((lines) => `${lines.join('\n')}\n`)
