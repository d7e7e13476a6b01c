// Runs every *.test.ts under test/ (or those whose path contains one of the arguments) with node's
// own test runner, several files at once. The files run as JavaScript: scripts/compile-tests.mjs
// first compiles src/, test/ and scenarios-example/ (what changed since last time) to node_modules/.cache/convy-tests/,
// and node runs those with source maps on, so stack traces say the .ts lines. Loading tsx in every
// test process instead cost each file about 0.7 CPU seconds of start-up. Types are checked by
// `npm run typecheck`, not here.
//
// Most of a test file's time is spent waiting on what it started: the bundled action and CLI as
// child processes, fake servers, a browser. So files run CONVY_TEST_CONCURRENCY at a time (default
// 4, or one per core where there are more); node's own default, one less than the cores, is one
// at a time on a 2-core machine. Each file is its own process, and no test shares a port, a temp
// folder or a variable with another file: ports are the system's choice, folders come from mkdtemp.
// CONVY_TEST_CONCURRENCY=1 runs them one after another, as before.
import { spawn } from 'node:child_process'
import { performance } from 'node:perf_hooks'
import { mkdtempSync, rmSync } from 'node:fs'
import { availableParallelism, tmpdir } from 'node:os'
import { join } from 'node:path'
import { compileTests, compiledPath } from './compile-tests.mjs'
import { childrenCpuSeconds, findTests, testEnvironment } from './test-files.mjs'

const concurrency = Number(process.env.CONVY_TEST_CONCURRENCY || Math.max(4, availableParallelism()))
if (!Number.isInteger(concurrency) || concurrency < 1) {
  console.error(`CONVY_TEST_CONCURRENCY=${process.env.CONVY_TEST_CONCURRENCY}: expected a whole number of files at once, 1 or more`)
  process.exit(2)
}

// The files that take longest go first, so the run does not end waiting on one started last: the
// page tests in one Chromium (report/browser, the longest by far), then by folder; within a folder,
// the files' order. `node scripts/time-tests.mjs` says which are slow.
const SLOW_FIRST = ['test/report/browser', 'test/reliability/', 'test/action/', 'test/cli/', 'test/agents/', 'test/hostile/', 'test/report/', 'test/library/']
const rank = (file) => {
  const at = SLOW_FIRST.findIndex((start) => file.startsWith(start))
  return at === -1 ? SLOW_FIRST.length : at
}
// --quick: only the files that start no product process and no browser (test-files.mjs), the inner loop.
const quick = process.argv.includes('--quick')
const files = findTests(process.argv.slice(2).filter((arg) => arg !== '--quick'), { quick }).sort((a, b) => rank(a) - rank(b) || a.localeCompare(b))

await compileTests()
// The reporter is node's spec reporter, with test/x.test.ts where node would say the compiled file.
const reporter = new URL('./test-reporter.mjs', import.meta.url).href
const args = ['--enable-source-maps', '--test', `--test-concurrency=${concurrency}`, `--test-reporter=${reporter}`, ...files.map(compiledPath)]
// The tests' temporary folders, all under one that goes when the run ends (CONVY_KEEP_TMP=1 keeps it).
const scratch = mkdtempSync(join(tmpdir(), 'convy-tests-'))
const started = performance.now()
const child = spawn(process.execPath, args, { stdio: 'inherit', env: testEnvironment(scratch) })
// Ctrl+C reaches the test processes too; this one waits for them to end before it removes anything.
process.on('SIGINT', () => {})
child.on('exit', (code, signal) => {
  if (process.env.CONVY_KEEP_TMP === '1') console.log(`temporary folders kept in ${scratch}`)
  else rmSync(scratch, { recursive: true, force: true, maxRetries: 3 })
  const cpu = childrenCpuSeconds()
  console.log(`${files.length} test files${quick ? ' (--quick)' : ''} in ${((performance.now() - started) / 1000).toFixed(1)} s${cpu === undefined ? '' : `, ${cpu.toFixed(1)} CPU-seconds`}`)
  process.exit(code ?? (signal ? 1 : 0))
})
