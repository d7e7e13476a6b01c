import assert from 'node:assert/strict'
import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { describe, test } from 'node:test'
import { ESLint } from 'eslint'
import { LAYERS, layerOf } from '../../scripts/layers.mjs'

// What a new maintainer relies on to find their way: src/ shows its layers at once, every folder says
// what it owns and what it may import, the code keeps what the READMEs say, no two files lean on each
// other in a circle, and a file long enough to hold two jobs is flagged for a second look.
const ROOT = new URL('../../', import.meta.url).pathname
const SRC = join(ROOT, 'src/')

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

/** A README's "May import:" paragraph, up to the first blank line. */
function mayImport(readme: string): string | undefined {
  return /^May import:?([\s\S]*?)(?:\n\s*\n|(?![\s\S]))/m.exec(readme)?.[1]
}

/** The src/ paths a "May import" paragraph names in backticks (`records/scenario/`, `play/judge/checks.ts`). */
function namedPaths(paragraph: string): string[] {
  return [...paragraph.matchAll(/`([^`]+)`/g)]
    .map((match) => match[1]!.replace(/^src\//, ''))
    .filter((path) => layerOf(path) !== undefined)
}

const layerRank = (path: string) => LAYERS.findIndex((layer) => layer === layerOf(path))

/** The unit whose README governs a file: src/<layer>/<folder>/, or the layer itself where it has no folders (verdict/). */
function unitOf(pathInSrc: string): string | undefined {
  const layer = layerOf(pathInSrc)
  if (!layer) return undefined
  const parts = pathInSrc.split('/')
  return layer.folders.length === 0 ? `${layer.name}/` : `${parts[0]}/${parts[1]}/`
}

/** Every import from one unit of src/ into another: `from → to` with the importing file. */
function crossUnitImports(): { unit: string; file: string; target: string }[] {
  const found: { unit: string; file: string; target: string }[] = []
  for (const file of sources(SRC)) {
    const from = relative(SRC, file)
    const unit = unitOf(from)
    if (!unit) continue
    for (const match of readFileSync(file, 'utf8').matchAll(/(?:from|import)\s*\(?\s*['"](\.{1,2}\/[^'"]+)['"]/g)) {
      const target = relative(SRC, join(dirname(file), match[1]!))
      if (target.startsWith('..') || unitOf(target) === unit) continue
      found.push({ unit, file: from, target })
    }
  }
  return found
}

describe('the layout of src/', () => {
  test('src/ holds the layers of scripts/layers.mjs and the package entry, nothing else (at most nine entries)', () => {
    const entries = readdirSync(SRC).sort()
    assert.deepEqual(entries, [...LAYERS.map((layer) => layer.name), 'index.ts'].sort())
    assert.ok(entries.length <= 9)
    for (const layer of LAYERS) {
      const inside = readdirSync(join(SRC, layer.name), { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name)
      assert.deepEqual(inside.sort(), [...layer.folders].sort(), `src/${layer.name}/ holds the folders its row of the table names`)
    }
  })

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

  test("every README's \"May import\" names only its own layer or layers below it", () => {
    const wrong: string[] = []
    for (const folder of folders(SRC)) {
      const own = relative(SRC, folder)
      const paragraph = mayImport(readFileSync(join(folder, 'README.md'), 'utf8')) ?? ''
      for (const path of namedPaths(paragraph)) {
        if (layerRank(path) < layerRank(own)) wrong.push(`src/${own}/README.md names ${path}, a layer above src/${layerOf(own)!.name}`)
      }
    }
    assert.deepEqual(wrong, [])
  })

  test('the code imports across folders only what the folder README allows', () => {
    const wrong = new Set<string>()
    for (const { unit, file, target } of crossUnitImports()) {
      const paragraph = mayImport(readFileSync(join(SRC, unit, 'README.md'), 'utf8')) ?? ''
      // The entry and app layers use what lies below them; their READMEs say "every layer below".
      if (/every layer below/.test(paragraph) && layerRank(target) > layerRank(unit)) continue
      const allowed = namedPaths(paragraph).some((path) => target === path || target.startsWith(path.endsWith('/') ? path : `${path}/`))
      if (!allowed) wrong.add(`src/${file} imports src/${target}, which src/${unit}README.md does not name under "May import"`)
    }
    assert.deepEqual([...wrong], [])
  })

  test('lint refuses an import from a lower layer into a higher one', async () => {
    // Only the import rule, and without the type-aware parser: the probe is no file of the TypeScript project.
    const eslint = new ESLint({
      cwd: ROOT,
      ruleFilter: ({ ruleId }) => ruleId === 'no-restricted-imports',
      overrideConfig: { languageOptions: { parserOptions: { projectService: false } } },
    })
    const code = "import { runAgents } from '../../app/pipeline/run-agents.ts'\nexport const x = runAgents\n"
    const [result] = await eslint.lintText(code, { filePath: join(SRC, 'records/journal/layer-probe.ts') })
    const messages = result!.messages.filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message)
    assert.equal(messages.length, 1)
    assert.match(messages[0]!, /src\/records is below src\/app/)
    // The same import from a layer above app/ is allowed.
    const [fromEntry] = await eslint.lintText(code, { filePath: join(SRC, 'entry/cli/layer-probe.ts') })
    assert.deepEqual(fromEntry!.messages.filter((m) => m.ruleId === 'no-restricted-imports'), [])
  })

  // The rule is "a file holds one job" (docs/architecture.md), which a review checks; length is only
  // a smell: past 500 lines a file has very likely taken on a second job.
  test('no source file is over 500 lines (a smell: a file holds one job)', () => {
    const long = sources(SRC)
      .map((file) => [file.slice(SRC.length), readFileSync(file, 'utf8').split('\n').length - 1] as const)
      .filter(([, lines]) => lines > 500)
    assert.deepEqual(long, [])
  })

  test('no two source files import each other, through any number of files', () => {
    const imports = new Map<string, string[]>()
    for (const file of sources(SRC)) {
      const text = readFileSync(file, 'utf8')
      const targets = [...text.matchAll(/^(?:import|export)\s[^'"]*?from\s+'(\.{1,2}\/[^']+)'/gm)].map((m) => resolve(dirname(file), m[1]!))
      imports.set(file, targets)
    }
    const circles: string[] = []
    const state = new Map<string, 'open' | 'done'>()
    const visit = (file: string, path: string[]): void => {
      if (state.get(file) === 'done') return
      if (state.get(file) === 'open') {
        circles.push([...path.slice(path.indexOf(file)), file].map((f) => f.slice(SRC.length)).join(' → '))
        return
      }
      state.set(file, 'open')
      for (const next of imports.get(file) ?? []) if (imports.has(next)) visit(next, [...path, file])
      state.set(file, 'done')
    }
    for (const file of imports.keys()) visit(file, [])
    assert.deepEqual(circles, [])
  })
})
