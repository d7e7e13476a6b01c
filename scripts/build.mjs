// The one build: src/ → dist/, a self-contained ESM file per entry point. dist/ is committed (the
// action runs it with no node_modules) and CI fails when it differs from a fresh build.
import { build } from 'esbuild'
import { execFileSync } from 'node:child_process'
import { createRequire } from 'node:module'
import { readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const pkg = JSON.parse(await readFile(new URL('../package.json', import.meta.url), 'utf8'))

// Some bundled CommonJS dependencies call require() for Node built-ins at run time; an ESM bundle has
// no require of its own (esbuild #1921), so give it one.
const requireShim = "import { createRequire as __convyCreateRequire } from 'node:module';\nconst require = __convyCreateRequire(import.meta.url);"

// zod bundles its messages in every language it has (270 KB of minified code in each bundle, parsed
// by every run). convy-ci words its own messages and falls back only to zod's English ones. The
// stand-in module names no absolute path: chunk names hash their inputs' paths, and dist/ must come
// out the same in any checkout (CI builds it again and compares).
const zodEnglishOnly = {
  name: 'zod-english-only',
  setup(build) {
    build.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
      /[\\/]node_modules[\\/]zod[\\/]/.test(args.importer)
        ? { path: 'locales/en-only.js', namespace: 'zod-english', pluginData: { localesDir: join(dirname(args.importer), '..', 'locales') } }
        : undefined,
    )
    build.onLoad({ filter: /.*/, namespace: 'zod-english' }, (args) => ({
      contents: "export { default as en } from './en.js'",
      resolveDir: args.pluginData.localesDir,
    }))
  },
}

// The pattern engine (re2js) runs in check workers started from a string, which can import nothing:
// it goes into the bundle as the text of its CommonJS build, once, evaluated by pattern.ts and by the
// workers alike (src/records/scenario/pattern-engine-source.ts reads the same file from node_modules).
const patternEngineAsText = {
  name: 'pattern-engine-as-text',
  setup(build) {
    build.onLoad({ filter: /[\\/]pattern-engine-source\.ts$/ }, async () => {
      const source = await readFile(createRequire(import.meta.url).resolve('re2js'), 'utf8')
      return { contents: `export function patternEngineSource() { return ${JSON.stringify(source)} }`, loader: 'js' }
    })
  },
}

const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  legalComments: 'none',
  // Whitespace and syntax are minified, names are not: a class or function keeps its own name
  // (error names, stack traces, the openai client's User-Agent) without esbuild's keepNames, whose
  // thousands of __name() calls at load cost a run about 20–40 ms before its first request
  // (bench/runner.ts). The files are a quarter larger; start-up is what users wait for.
  minifyWhitespace: true,
  minifySyntax: true,
  logLevel: 'warning',
  // esbuild compiles users' TypeScript agents when it is installed next to convy-ci (npx, npm i).
  // It cannot be bundled (it runs a native binary), so it stays an optional import.
  external: ['esbuild'],
  define: { __CONVY_VERSION__: JSON.stringify(pkg.version) },
  plugins: [zodEnglishOnly, patternEngineAsText],
}

await rm(new URL('../dist', import.meta.url), { recursive: true, force: true })
const builds = await Promise.all([
  build({ ...common, metafile: true, entryPoints: ['src/entry/action/main.ts'], outfile: 'dist/action.js', banner: { js: requireShim } }),
  // What npm ships: the CLI and the library share the pipeline, so it is in dist/chunks/ once, not
  // in each entry (the package stays small), and `import 'convy-ci'` loads run()'s part only when
  // run() is called. The action's bundle stays one file: it runs from the repository.
  build({
    ...common,
    metafile: true,
    entryPoints: { cli: 'src/entry/cli/main.ts', index: 'src/index.ts', testing: 'src/entry/testing/index.ts' },
    outdir: 'dist',
    splitting: true,
    chunkNames: 'chunks/[name]-[hash]',
  }),
])
// Of the npm files, only the chunk holding esbuild's __require helper calls require(): it alone gets
// the shim. Each chunk that made its own require cost a run about 0.1 ms before its first request,
// and a run loads some forty chunks.
const distDir = fileURLToPath(new URL('../dist', import.meta.url))
for (const entry of await readdir(distDir, { recursive: true, withFileTypes: true })) {
  if (!entry.isFile() || !entry.name.endsWith('.js') || entry.name === 'action.js') continue
  const file = join(entry.parentPath, entry.name)
  const code = await readFile(file, 'utf8')
  if (code.includes('typeof require<"u"?require')) await writeFile(file, `${requireShim}\n${code}`)
}
// legalComments: 'none' drops the notices in the code: the licences of every bundled package go in
// dist/licenses.txt instead (the action's bundle and npm's files alike), read from each package's
// own licence file. re2js is bundled as text by the plugin above, not as an input esbuild sees.
await writeFile(join(distDir, 'licenses.txt'), await licensesOf([...builds.flatMap((result) => Object.keys(result.metafile.inputs)), 'node_modules/re2js/package.json']))

async function readmeLicence(dir) {
  const readme = (await readdir(dir)).find((name) => /^readme(\..*)?$/i.test(name))
  if (readme === undefined) return undefined
  const lines = (await readFile(join(dir, readme), 'utf8')).split(/\r?\n/)
  const heading = (i) => /^#+\s/.test(lines[i] ?? '') || /^(=+|-+)\s*$/.test(lines[i + 1] ?? '')
  const start = lines.findIndex((line, i) => /^(#+\s*)?licen[cs]e\s*$/i.test(line.trim()) && heading(i))
  if (start < 0) return undefined
  let end = start + (/^#/.test(lines[start]) ? 1 : 2)
  while (end < lines.length && !heading(end)) end++
  const text = lines.slice(start, end).join('\n').trim()
  return `(From the package's ${readme}: it ships no licence file.)\n\n${text}`
}

async function licensesOf(inputs) {
  const packages = new Map()
  for (const input of inputs) {
    const match = /^(.*node_modules\/(?:@[^/]+\/)?[^/]+)\//.exec(input.replace(/^[a-z-]+:/, ''))
    if (match && !packages.has(match[1])) packages.set(match[1], null)
  }
  const entries = []
  const root = fileURLToPath(new URL('..', import.meta.url))
  for (const relativeDir of packages.keys()) {
    const dir = join(root, relativeDir)
    const manifest = JSON.parse(await readFile(join(dir, 'package.json'), 'utf8'))
    const files = (await readdir(dir)).filter((name) => /^(licen[cs]e|copying|notice)([.-].*)?$/i.test(name)).sort()
    const texts = await Promise.all(files.map((name) => readFile(join(dir, name), 'utf8')))
    const declared = typeof manifest.license === 'string' ? manifest.license : (manifest.license?.type ?? 'no licence declared')
    // Without a licence file, the licence section of the package's README, as some old packages keep it.
    const fromReadme = files.length === 0 ? await readmeLicence(dir) : undefined
    if (files.length === 0 && fromReadme === undefined) console.warn(`licenses.txt: ${manifest.name}@${manifest.version} (${declared}) ships no licence text, neither a file nor a README section; noted as such`)
    const body =
      files.length > 0
        ? texts.map((text) => text.trim()).join('\n\n')
        : (fromReadme ?? `(The package ships no licence text, neither a licence file nor a section of its README; its package.json declares: ${declared}.)`)
    entries.push({ id: `${manifest.name}@${manifest.version}`, text: `${manifest.name}@${manifest.version} (${declared})\n\n${body}` })
  }
  const unique = [...new Map(entries.map((entry) => [entry.id, entry])).values()].sort((a, b) => a.id.localeCompare(b.id))
  const rule = '\n\n' + '-'.repeat(78) + '\n\n'
  return `Third-party software bundled in convy-ci's dist/ (action.js, cli.js, index.js, testing.js, chunks/):\n${unique.length} packages, each with its licence as the package ships it.${rule}${unique.map((entry) => entry.text).join(rule)}\n`
}

const cli = fileURLToPath(new URL('../dist/cli.js', import.meta.url))
await writeFile(cli, `#!/usr/bin/env node\n${await readFile(cli, 'utf8')}`)

// Type declarations of the public API (dist/types), for editors of users' agent modules. The
// declarations keep the source's `.ts` import specifiers; point them at the emitted `.d.ts` files.
const tsc = fileURLToPath(new URL('../node_modules/typescript/bin/tsc', import.meta.url))
execFileSync(process.execPath, [tsc, '-p', 'tsconfig.types.json'], { stdio: 'inherit' })
const typesDir = fileURLToPath(new URL('../dist/types', import.meta.url))
for (const entry of await readdir(typesDir, { recursive: true, withFileTypes: true })) {
  if (!entry.isFile() || !entry.name.endsWith('.d.ts')) continue
  const file = join(entry.parentPath, entry.name)
  const text = await readFile(file, 'utf8')
  await writeFile(file, text.replace(/(from\s+['"]\.{1,2}\/[^'"]+)\.ts(['"])/g, '$1.js$2'))
}

// tsc declares every module the entries reach in code, the whole pipeline behind run() included;
// keep only the declarations the public types reach, so the package ships its API, not its insides.
const reached = new Set()
const visit = async (file) => {
  if (reached.has(file)) return
  reached.add(file)
  const text = await readFile(file, 'utf8')
  for (const [, specifier] of text.matchAll(/(?:from|import)\s*\(?\s*['"](\.{1,2}\/[^'"]+)\.js['"]/g)) await visit(join(dirname(file), `${specifier}.d.ts`))
}
await visit(join(typesDir, 'index.d.ts'))
await visit(join(typesDir, 'entry', 'testing', 'index.d.ts'))
for (const entry of await readdir(typesDir, { recursive: true, withFileTypes: true })) {
  const file = join(entry.parentPath, entry.name)
  if (entry.isFile() && !reached.has(file)) await rm(file)
}
// Folders left empty go too.
for (const entry of (await readdir(typesDir, { recursive: true, withFileTypes: true })).reverse()) {
  const dir = join(entry.parentPath, entry.name)
  if (entry.isDirectory() && (await readdir(dir)).length === 0) await rm(dir, { recursive: true })
}
