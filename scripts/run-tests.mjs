// Runs every *.test.ts under test/ with node's own test runner (TypeScript through tsx).
// Node 20's runner does not expand globs itself, so the files are listed here.
import { spawn } from 'node:child_process'
import { readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'

function findTests(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) return name === 'fixtures' ? [] : findTests(path)
    return name.endsWith('.test.ts') ? [path] : []
  })
}

const filter = process.argv.slice(2)
const files = findTests('test').filter((f) => filter.length === 0 || filter.some((s) => f.includes(s))).sort()
if (files.length === 0) {
  console.error('no test files found')
  process.exit(1)
}
const child = spawn(process.execPath, ['--import', 'tsx', '--test', '--test-reporter=spec', ...files], { stdio: 'inherit' })
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)))
