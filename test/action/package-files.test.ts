import assert from 'node:assert/strict'
import { execFile } from 'node:child_process'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { test } from 'node:test'
import { fileURLToPath } from 'node:url'

// What `npm publish` would upload, as npm itself lists it: the CLI, the library and its types, the
// license; not the action's bundle, which runs from the repository (a tag), never from npm.

const root = fileURLToPath(new URL('../../', import.meta.url))

test('the npm package has what the CLI and the library need, and not the action bundle', async () => {
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm'
  const stdout = await new Promise<string>((done, fail) => {
    execFile(npm, ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: root, maxBuffer: 16 * 1024 * 1024 }, (error, out) => (error ? fail(error) : done(out)))
  })
  const [pack] = JSON.parse(stdout) as { files: { path: string }[]; size: number }[]
  const files = pack!.files.map((f) => f.path)
  const pkg = JSON.parse(await readFile(join(root, 'package.json'), 'utf8')) as {
    bin: Record<string, string>
    exports: Record<string, { types: string; default: string }>
    license: string
    repository: { url: string }
  }
  // Every entry point package.json promises (`convy-ci`, `convy-ci/testing`, …) and its types.
  const entryPoints = Object.values(pkg.exports).flatMap((entry) => [entry.default, entry.types])
  assert.ok(entryPoints.length >= 4, Object.keys(pkg.exports).join(', '))
  for (const needed of [pkg.bin['convy-ci']!, ...entryPoints, 'LICENSE', 'README.md', 'CHANGELOG.md']) {
    assert.ok(files.includes(needed.replace(/^\.\//, '')), `${needed} is not in the package: ${files.join(', ')}`)
  }
  assert.ok(!files.includes('dist/action.js'), 'the action bundle is in the package')
  assert.ok(!files.some((f) => /^(src|test|scenarios-example)\//.test(f)))
  assert.ok(pack!.size < 1_000_000, `${pack!.size} bytes packed`)
  assert.equal(pkg.license, 'MIT')
  assert.match(await readFile(join(root, 'LICENSE'), 'utf8'), /^MIT License/)
  // npm turns the README's relative images into links to the repository only when it knows it.
  assert.match(pkg.repository.url, /github\.com\/convy\/action/)
})
