// Times every *.test.ts under test/ by itself, one after another, and prints the files slowest
// first, by folder, and the sums: the figures to watch when the suite gets slow. Takes the same
// substring filters as run-tests.mjs. Each file runs as run-tests.mjs runs it (compiled to
// JavaScript by scripts/compile-tests.mjs, source maps on) and pays its own start-up, as it does
// under `node --test`.
//
// On a shared machine wall time says more about the neighbours than about the tests: where
// /usr/bin/time exists, the CPU seconds of each file (its processes and their children) are shown
// too, and those hardly move with the load.
import { spawn } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { compileTests, compiledPath } from './compile-tests.mjs'
import { findTests, testEnvironment } from './test-files.mjs'

// --jobs N times N files at once: their wall times then include one another, their CPU seconds
// hardly do. Default 1.
const args = process.argv.slice(2)
const jobsAt = args.indexOf('--jobs')
const jobs = jobsAt === -1 ? 1 : Number(args.splice(jobsAt, 2)[1])
const files = findTests(args)
const TIME = '/usr/bin/time'
const scratch = mkdtempSync(join(tmpdir(), 'convy-time-tests-'))
await compileTests()
const load = () => loadavg().map((l) => l.toFixed(1)).join(' ')
console.log(`${files.length} files, ${jobs} at a time; load average at the start: ${load()}`)

function timeOne(file, slot) {
  const cpuFile = join(scratch, `cpu-${slot}`)
  rmSync(cpuFile, { force: true })
  const node = [process.execPath, '--enable-source-maps', '--test', '--test-reporter=dot', compiledPath(file)]
  const [command, ...args] = existsSync(TIME) ? [TIME, '-o', cpuFile, '-f', '%U %S', ...node] : node
  const started = process.hrtime.bigint()
  return new Promise((resolve) => {
    spawn(command, args, { stdio: 'ignore', env: testEnvironment(scratch) }).on('exit', (code) => {
      const wall = Number(process.hrtime.bigint() - started) / 1e9
      // GNU time's last line is "user system"; a line before it says when the command was killed.
      const times = existsSync(cpuFile) ? readFileSync(cpuFile, 'utf8').trim().split('\n').at(-1).split(' ').map(Number) : []
      const cpu = times.length === 2 && times.every(Number.isFinite) ? times[0] + times[1] : null
      resolve({ file, wall, cpu, ok: code === 0 })
    })
  })
}

const rows = []
const queue = [...files]
await Promise.all(
  Array.from({ length: jobs }, async (_, slot) => {
    for (let file = queue.shift(); file !== undefined; file = queue.shift()) {
      const row = await timeOne(file, slot)
      rows.push(row)
      process.stderr.write(`${format(row)}\n`)
    }
  }),
)
rmSync(scratch, { recursive: true, force: true })

function format(row) {
  const cpu = row.cpu === null ? '' : `${row.cpu.toFixed(1).padStart(6)} s cpu`
  return `${row.wall.toFixed(1).padStart(6)} s  ${cpu}  ${row.ok ? 'ok  ' : 'FAIL'}  ${row.file}`
}
const sum = (list, key) => list.reduce((total, row) => total + (row[key] ?? 0), 0)

rows.sort((a, b) => b.wall - a.wall)
for (const row of rows) console.log(format(row))
const folders = byFolder(rows)
console.log('\nby folder:')
for (const [folder, list] of [...folders].sort((a, b) => sum(b[1], 'wall') - sum(a[1], 'wall'))) {
  console.log(`${sum(list, 'wall').toFixed(1).padStart(6)} s  ${existsSync(TIME) ? `${sum(list, 'cpu').toFixed(1).padStart(6)} s cpu  ` : ''}${folder} (${list.length} files)`)
}
console.log(`\n${rows.length} files, ${sum(rows, 'wall').toFixed(1)} s wall${existsSync(TIME) ? `, ${sum(rows, 'cpu').toFixed(1)} s cpu` : ''}, ${rows.filter((r) => !r.ok).length} failing`)
console.log(`load average at the end: ${load()}`)
process.exitCode = rows.some((r) => !r.ok) ? 1 : 0

// Map.groupBy is Node 21's.
function byFolder(list) {
  const groups = new Map()
  for (const row of list) {
    const key = row.file.split('/').slice(0, 2).join('/')
    groups.set(key, [...(groups.get(key) ?? []), row])
  }
  return groups
}
