import assert from 'node:assert/strict'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, test } from 'node:test'

// What a new maintainer relies on to find their way: every folder of src/ says what it owns and what
// it may import, and no file grows past a size one can hold in mind.
const SRC = new URL('../../src/', import.meta.url).pathname

function folders(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .flatMap((entry) => [join(dir, entry.name), ...folders(join(dir, entry.name))])
}

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => join(entry.parentPath, entry.name))
}

describe('the layout of src/', () => {
  test('every folder has a README that says what it owns and what it may import', () => {
    const missing: string[] = []
    for (const folder of folders(SRC)) {
      let text: string
      try {
        text = readFileSync(join(folder, 'README.md'), 'utf8')
      } catch {
        missing.push(`${folder.slice(SRC.length)}: no README.md`)
        continue
      }
      if (!/^Owns\b/m.test(text) || !/^May import\b/m.test(text)) missing.push(`${folder.slice(SRC.length)}: README.md without "Owns" and "May import"`)
    }
    assert.deepEqual(missing, [])
  })

  test('no source file is over 300 lines', () => {
    const long = sources(SRC)
      .map((file) => [file.slice(SRC.length), readFileSync(file, 'utf8').split('\n').length - 1] as const)
      .filter(([, lines]) => lines > 300)
    assert.deepEqual(long, [])
  })
})
