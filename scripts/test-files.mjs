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
