// `npm test`: the static checks and every test file, on one machine's cores at once.
//
// The check that dist/ is a fresh build of src/ comes first, because it rebuilds dist/ in place and
// the action's and the CLI's tests run dist/: the tests start the moment it passes, and never when it
// fails. The type check and the lint start with it and go on beside the tests (~15 and ~30 CPU
// seconds, mostly on one thread each): waiting for them before the first test left a core partly
// idle while the lint ended alone (~30 % idle over its last 11 s). Neither changes what the tests
// run (they run JavaScript compiled from src/ and test/, types stripped), so their verdicts are
// printed after the tests' and fail the run the same. Ctrl+C reaches every process of the group;
// this one waits for them to end and names what was stopped.
import { Buffer } from 'node:buffer'
import { spawn } from 'node:child_process'
import { performance } from 'node:perf_hooks'
import { childrenCpuSeconds } from './test-files.mjs'

const CHECK_DIST = ['check-dist', 'scripts/check-dist.mjs', []]
// The type check keeps what it learnt about each file in node_modules/.cache (which `npm ci` empties):
// a second `npm test` checks again only what changed and what depends on it (~18 → ~8 CPU seconds).
const BESIDE_THE_TESTS = [
  ['typecheck', 'node_modules/typescript/bin/tsc', ['--noEmit', '--incremental', '--tsBuildInfoFile', 'node_modules/.cache/convy-typecheck/tsconfig.tsbuildinfo']],
  ['lint', 'node_modules/eslint/bin/eslint.js', ['.']],
]

/** Runs a check with its output kept, and resolves to its name, verdict and output once it ends. */
function runBuffered([name, script, args]) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [script, ...args], { stdio: ['ignore', 'pipe', 'pipe'] })
    const output = []
    child.stdout.on('data', (chunk) => output.push(chunk))
    child.stderr.on('data', (chunk) => output.push(chunk))
    child.on('close', (code, signal) => {
      const status = code === 0 ? 'ok' : `failed (${signal ?? `exit ${code}`})`
      resolve({ name, passed: code === 0, status, text: Buffer.concat(output).toString('utf8').trimEnd() })
    })
  })
}

const report = ({ name, status, text }) => process.stdout.write(`\n> ${name}: ${status}\n${text ? `${text}\n` : ''}`)

process.on('SIGINT', () => {})
let testsRunning = false
const besideTheTests = BESIDE_THE_TESTS.map((check) =>
  runBuffered(check).then((result) => {
    // Said at once, so that no one waits for the tests to learn it; the details come after them.
    if (!result.passed && testsRunning) process.stdout.write(`\n> ${result.name}: ${result.status}; its output follows the tests' (Ctrl+C stops here)\n`)
    return result
  }),
)
const dist = await runBuffered(CHECK_DIST)
report(dist)

let testsPassed = false
if (dist.passed) {
  process.stdout.write(`\n> tests (${BESIDE_THE_TESTS.map(([name]) => name).join(' and ')} go on beside them; their verdicts follow)\n`)
  testsRunning = true
  const tests = spawn(process.execPath, ['scripts/run-tests.mjs', ...process.argv.slice(2)], { stdio: 'inherit' })
  testsPassed = await new Promise((resolve) => tests.on('exit', (code) => resolve(code === 0)))
  testsRunning = false
}

const checks = await Promise.all(besideTheTests)
checks.forEach(report)
// What the whole run cost: the checks', the tests' and every process they started (test-files.mjs).
const cpu = childrenCpuSeconds()
if (cpu !== undefined) console.log(`\nnpm test took ${cpu.toFixed(0)} CPU-seconds (${((performance.now()) / 1000).toFixed(0)} s)`)
const failed = [dist, ...checks].filter((check) => !check.passed).map((check) => check.name)
if (!dist.passed) failed.push('tests (not run: dist/ is not a fresh build)')
else if (!testsPassed) failed.push('tests')
if (failed.length > 0) {
  console.error(`\nnpm test failed: ${failed.join(', ')}`)
  process.exit(1)
}
console.log('\nnpm test passed: check-dist, typecheck, lint and every test')
