// The test files: every *.test.ts under test/ (fixtures left out), sorted, optionally only those
// whose path contains one of the given substrings. Node 20's runner does not expand globs itself.
import { execFileSync } from 'node:child_process'
import { readFileSync, readdirSync, statSync } from 'node:fs'
import { dirname, join, normalize } from 'node:path'

function walk(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) return name === 'fixtures' ? [] : walk(path)
    return name.endsWith('.test.ts') ? [path] : []
  })
}

export function findTests(filters = [], { quick = false } = {}) {
  const files = walk('test')
    .filter((f) => filters.length === 0 || filters.some((s) => f.includes(s)))
    .filter((f) => !quick || startsNothing(f))
    .sort()
  if (files.length === 0) {
    console.error('no test files found')
    process.exit(1)
  }
  return files
}

// The environment the test files run in: this one, with TMPDIR set to `scratch`, and without
// NODE_EXTRA_CA_CERTS.
// - TMPDIR: every folder a test makes with mkdtemp(tmpdir()) (projects, run folders, runner homes,
//   Chromium's profile) lands in one folder per run of the suite, which the runner removes at the
//   end: the tests themselves leave theirs (16,000 entries had piled up in this machine's /tmp).
// - NODE_EXTRA_CA_CERTS: Node 20 reads every certificate of that file as it starts, before any code
//   runs (about 50 ms of CPU per process), and the suite starts hundreds of Node processes, none of
//   which reaches a server outside 127.0.0.1 or trusts the machine's CAs: the fakes' certificates are
//   made by the tests and handed over as `ca:`. test/cli alone: 84 → 76 CPU seconds.
export function testEnvironment(scratch) {
  const env = { ...process.env, TMPDIR: scratch }
  delete env.NODE_EXTRA_CA_CERTS
  return env
}

// `npm run test:quick`: the files that start no product process and no browser, which is most of the
// suite's files and a small part of its CPU. A file is left out when it, or a helper of test/ it
// imports (followed through test/'s own imports), names the bundles in dist/ (the action and the CLI
// as child processes, which also need a build first), node itself as a child process
// (process.execPath: the CLI, an example agent), a whole CLI command run in the test's own process
// (runInProcess, test/cli/harness.ts: a product run all the same, and most of the CPU of test/cli/),
// or a browser. Decided from the text, so a new test file is sorted the day it is written, without a
// list to keep.
const STARTS_PROCESSES = /\bdist\/(?:cli|action|index|testing)\.js|['"`](?:\.\.\/)+dist\/|process\.execPath|runInProcess|playwright|chromium|browser-harness/

const verdicts = new Map()
export function startsNothing(file, seen = new Set()) {
  if (verdicts.has(file)) return verdicts.get(file)
  if (seen.has(file)) return true
  seen.add(file)
  const text = readFileSync(file, 'utf8')
  const helpers = [...text.matchAll(/(?:from|import)\s*\(?\s*['"](\.{1,2}\/[^'"]+\.ts)['"]/g)].map(([, path]) => normalize(join(dirname(file), path))).filter((path) => path.startsWith('test/'))
  const verdict = !STARTS_PROCESSES.test(text) && helpers.every((helper) => startsNothing(helper, seen))
  verdicts.set(file, verdict)
  return verdict
}

/**
 * CPU-seconds (user + system) of every process this one started and waited for, their own children
 * included, as `time` counts them: Linux's cutime and cstime of /proc/self/stat. Node reports only a
 * process's own usage (process.resourceUsage), and the tests' CPU is in their processes, the bundled
 * CLI's and the browser's. Undefined where /proc is not there.
 */
export function childrenCpuSeconds() {
  try {
    const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ')
    // After the name: state is field 3, so cutime (16) and cstime (17) are at 13 and 14.
    return (Number(fields[13]) + Number(fields[14])) / clockTicks()
  } catch {
    return undefined
  }
}

function clockTicks() {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100
  } catch {
    return 100
  }
}
