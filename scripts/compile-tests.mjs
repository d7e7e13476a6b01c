// Compiles every .ts under src/, test/ and scenarios-example/ (test/fixtures/ left out: the product
// compiles those itself, at their own paths) to JavaScript in node_modules/.cache/convy-tests/, the same tree, so
// that `node --test` runs the test files without tsx: tsx in every test process (a loader thread and
// an esbuild service) cost each file about 0.7 CPU seconds of start-up. Types are only stripped;
// `npm run typecheck` checks them.
//
// Each compiled file behaves as if Node had imported the .ts where it is:
// - a relative import of a compiled file gets .js for .ts; any other relative import (scripts/*.mjs,
//   test/support/clock-ahead.mjs, a fixture) points at the original file;
// - import.meta.url, .filename and .dirname are the .ts file's, so dist/, package.json, fixtures and
//   scenarios-example/ are found where they are (import.meta.resolve of a package finds the same
//   node_modules from either place);
// - a source map (linked, sources only) sends a stack trace's frames to the .ts lines.
//
// Why node_modules/.cache/: it is git-ignored, eslint, tsc and the package's files never look there,
// and `npm ci` (new dependencies) empties it. A package.json there says the files are ES modules.
//
// Only the files whose size or mtime changed are compiled again (a manifest keeps them); a change of
// this script, esbuild's version or the checkout's place compiles everything. Everything takes about
// a second; nothing to do, a few milliseconds.
//
// `node scripts/compile-tests.mjs` compiles and prints where; run-tests.mjs and time-tests.mjs import
// compileTests().
import { createHash } from 'node:crypto'
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { dirname, join, relative, resolve, sep } from 'node:path'
import { performance } from 'node:perf_hooks'
import { fileURLToPath, pathToFileURL } from 'node:url'
import * as esbuild from 'esbuild'

export const ROOT = fileURLToPath(new URL('..', import.meta.url)).replace(/[\\/]$/, '')
export const BUILD = join(ROOT, 'node_modules', '.cache', 'convy-tests')
const MANIFEST = join(BUILD, 'manifest.json')
// scenarios-example/ for the demo server test/agents/demo-protocols.test.ts imports; its agent modules
// are compiled too, but only the product loads them, from where they are.
const TREES = ['src', 'test', 'scenarios-example']
const posix = (path) => path.split(sep).join('/')

/** Whether a path (relative to the root, / or \) is one this script compiles. */
export function isCompiled(path) {
  const rel = posix(path)
  return TREES.some((tree) => rel.startsWith(`${tree}/`)) && !rel.startsWith('test/fixtures/') && rel.endsWith('.ts') && !rel.endsWith('.d.ts')
}

/** Where test/x.test.ts (relative to the root) is compiled to. */
export const compiledPath = (path) => join(BUILD, path.replace(/\.ts$/, '.js'))

function sources() {
  const found = []
  const walk = (dir) => {
    for (const entry of readdirSync(join(ROOT, dir), { withFileTypes: true })) {
      const path = posix(join(dir, entry.name))
      if (entry.isDirectory()) {
        if (path !== 'test/fixtures') walk(path)
      } else if (isCompiled(path)) found.push(path)
    }
  }
  TREES.forEach(walk)
  return found
}

// The compiled files' location becomes the source's: file:///…/node_modules/.cache/convy-tests/test/a.js
// is file:///…/test/a.ts. Written once at the top of each file; esbuild's define points import.meta.*
// at these names (by its parser: strings and comments that mention import.meta stay as written).
const BANNER = [
  `import { fileURLToPath as __convyPath } from 'node:url';`,
  `const __convyMetaUrl = ${JSON.stringify(pathToFileURL(ROOT).href)} + import.meta.url.slice(${pathToFileURL(BUILD).href.length}, -3) + '.ts';`,
  `const __convyMetaFilename = __convyPath(__convyMetaUrl);`,
  `const __convyMetaDirname = __convyPath(new URL('.', __convyMetaUrl)).replace(/[\\\\/]$/, '');`,
].join(' ')

// esbuild compiles each file alone (no bundling: no call back into this process per import), and
// prints an import's specifier in double quotes: `from "./x.ts"`, `import "./x.ts"`,
// `import("./x.ts")`. Those relative specifiers are rewritten in its output; .ts to .js keeps the
// length, so the source map's columns stay right. A string in a test that reads like an import is
// told apart by esbuild's metafile, which lists each output's real imports: the specifiers found
// must be exactly those, or compiling stops and says where.
const SPECIFIER = /(\bfrom\s*|^\s*import\s*|\bimport\(\s*)"(\.\.?\/[^"\n]*)"/gm

function rewriteImports(code, file, imports) {
  const found = []
  const rewritten = code.replace(SPECIFIER, (_, before, specifier) => {
    found.push(specifier)
    return `${before}"${rewriteSpecifier(specifier, file)}"`
  })
  const expected = imports.filter((i) => /^\.\.?\//.test(i.path)).map((i) => i.path)
  if (found.sort().join('\n') !== expected.sort().join('\n')) {
    throw new Error(`compile-tests: ${file}: the relative imports found in esbuild's output (${found.join(', ')}) are not those esbuild reports (${expected.join(', ')}): a string that reads like an import? Write it in single quotes or backticks.`)
  }
  return rewritten
}

// A compiled file's import of another: .js for .ts. Anything else (scripts/*.mjs, a fixture): the
// original file, relative to the compiled one.
function rewriteSpecifier(specifier, file) {
  const target = resolve(ROOT, dirname(file), specifier)
  if (isCompiled(relative(ROOT, target))) return specifier.replace(/\.ts$/, '.js')
  const path = posix(relative(dirname(compiledPath(file)), target))
  return path.startsWith('.') ? path : `./${path}`
}

// Written whole or not at all: two runs at once in one checkout never import half a file.
function writeWhole(path, contents) {
  const temporary = `${path}.${process.pid}.tmp`
  writeFileSync(temporary, contents)
  renameSync(temporary, path)
}

function manifestKey() {
  const hash = createHash('sha256')
  hash.update(readFileSync(fileURLToPath(import.meta.url)))
  hash.update(`${esbuild.version}\0${ROOT}`)
  return hash.digest('hex')
}

function readManifest(key) {
  try {
    const manifest = JSON.parse(readFileSync(MANIFEST, 'utf8'))
    return manifest.key === key ? manifest.files : undefined
  } catch {
    return undefined
  }
}

function sweepStale(wanted) {
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name)
      if (entry.isDirectory()) walk(path)
      else if (/\.js(\.map)?$/.test(entry.name) && !wanted.has(path)) rmSync(path, { force: true })
    }
  }
  for (const tree of TREES) {
    try {
      walk(join(BUILD, tree))
    } catch (error) {
      if (error.code !== 'ENOENT') throw error
    }
  }
}

/** Compiles what changed since the last time; returns how many files it compiled, and of how many. */
export async function compileTests() {
  const key = manifestKey()
  // No manifest (a fresh clone, another esbuild, this script changed): everything is compiled again,
  // over the files there, never by emptying the folder first, since another run in this checkout
  // may be importing them; what no source compiles to any more is swept away afterwards.
  const previous = readManifest(key)
  const sweep = previous === undefined
  mkdirSync(BUILD, { recursive: true })
  writeFileSync(join(BUILD, 'package.json'), '{ "type": "module", "private": true }\n')

  const files = {}
  const changed = []
  for (const path of sources()) {
    const { size, mtimeMs } = statSync(join(ROOT, path))
    files[path] = `${size}:${mtimeMs}`
    if (sweep || previous[path] !== files[path]) changed.push(path)
  }
  for (const path of Object.keys(previous ?? {})) {
    if (path in files) continue
    rmSync(compiledPath(path), { force: true })
    rmSync(`${compiledPath(path)}.map`, { force: true })
  }
  // The manifest goes when compiling starts and comes back when it is done: a run stopped halfway
  // compiles everything next time.
  rmSync(MANIFEST, { force: true })
  if (changed.length > 0) {
    const { outputFiles, metafile } = await esbuild.build({
      absWorkingDir: ROOT,
      entryPoints: changed,
      outdir: BUILD,
      outbase: ROOT,
      write: false,
      metafile: true,
      format: 'esm',
      platform: 'node',
      target: 'node20',
      // tsx's choices: names as written (a class's or function's .name), tsconfig.json's settings.
      keepNames: true,
      sourcemap: 'linked',
      sourcesContent: false,
      banner: { js: BANNER },
      define: {
        'import.meta.url': '__convyMetaUrl',
        'import.meta.filename': '__convyMetaFilename',
        'import.meta.dirname': '__convyMetaDirname',
      },
      logLevel: 'error',
    })
    const dirs = new Set()
    for (const output of outputFiles) {
      const dir = dirname(output.path)
      if (!dirs.has(dir)) {
        mkdirSync(dir, { recursive: true })
        dirs.add(dir)
      }
      if (output.path.endsWith('.map')) {
        writeWhole(output.path, output.contents)
        continue
      }
      const meta = metafile.outputs[posix(relative(ROOT, output.path))]
      writeWhole(output.path, rewriteImports(output.text, meta.entryPoint, meta.imports))
    }
  }
  // A compiled file left from a deleted source would let an import of it pass here and fail elsewhere.
  if (sweep) sweepStale(new Set(Object.keys(files).flatMap((path) => [compiledPath(path), `${compiledPath(path)}.map`])))
  writeFileSync(MANIFEST, JSON.stringify({ key, files }))
  return { compiled: changed.length, of: Object.keys(files).length }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const started = performance.now()
  const { compiled, of } = await compileTests()
  console.log(`compiled ${compiled} of ${of} files to ${relative(process.cwd(), BUILD) || '.'} in ${Math.round(performance.now() - started)} ms`)
}
