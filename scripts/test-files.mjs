// The test files: every *.test.ts under test/ (fixtures left out), sorted, optionally only those
// whose path contains one of the given substrings. Node 20's runner does not expand globs itself.
import { readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'

function walk(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) return name === 'fixtures' ? [] : walk(path)
    return name.endsWith('.test.ts') ? [path] : []
  })
}

export function findTests(filters = []) {
  const files = walk('test').filter((f) => filters.length === 0 || filters.some((s) => f.includes(s))).sort()
  if (files.length === 0) {
    console.error('no test files found')
    process.exit(1)
  }
  return files
}
