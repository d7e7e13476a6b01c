// What a small file write costs the process, through libuv's thread pool (fs/promises) or as a
// synchronous call, in the two shapes a run writes many of: an attempt's line appended to
// attempts.jsonl, and a model-cache entry (a folder, a temporary file, a rename).
//
//   npm run bench:fs [-- --count 2000]
//
// CPU is the whole process's (user + system, every thread), so a thread-pool call pays for waking a
// worker and being woken back, not only for the system call. Each figure is the median of 5 rounds.
//
// What it showed (2-core VM, ext4): an attempt's line costs about 110–140 µs of CPU through the pool
// and 8–13 µs written synchronously, so the journal appends synchronously. A cache entry costs 0.7–2 ms
// either way, nearly all of it the file system's own work (creating and renaming a file), and a
// synchronous one would hold the event loop, and 50 conversations' answers, for that long: the model
// cache stays on the pool.
import { mkdirSync, openSync, closeSync, renameSync, rmSync, writeFileSync, writeSync } from 'node:fs'
import { mkdir, mkdtemp, open, rename, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { median } from './median.ts'

const { values } = parseArgs({ options: { count: { type: 'string', default: '2000' } } })
const COUNT = Number(values.count)
const ROUNDS = 5
/** About an attempt's line: 3 turns, a judge's verdict, timings. */
const LINE = `${JSON.stringify({ scenario: 's1', attempt: 1, transcript: 'x'.repeat(1200) })}\n`
/** About a cached answer: a user line or a judge's verdict, with token counts. */
const ENTRY = JSON.stringify({ version: 1, answer: { content: 'y'.repeat(300), refusal: null, finishReason: 'stop', inputTokens: 900, outputTokens: 40 } })

type Shape = (dir: string) => Promise<void>

/** As the journal wrote before: one queue of FileHandle writes, attempts finishing meanwhile. */
const appendThroughPool: Shape = async (dir) => {
  const handle = await open(join(dir, 'attempts.jsonl'), 'a')
  let queue: Promise<unknown> = Promise.resolve()
  const writes: Promise<unknown>[] = []
  for (let i = 0; i < COUNT; i++) {
    const write = queue.then(() => handle.write(LINE))
    queue = write.catch(() => undefined)
    writes.push(write)
    if (i % 10 === 9) await new Promise((resolve) => setImmediate(resolve))
  }
  await Promise.all(writes)
  await handle.close()
}

const appendSync: Shape = async (dir) => {
  const fd = openSync(join(dir, 'attempts.jsonl'), 'a')
  for (let i = 0; i < COUNT; i++) {
    writeSync(fd, Buffer.from(LINE))
    if (i % 10 === 9) await new Promise((resolve) => setImmediate(resolve))
  }
  closeSync(fd)
}

const entryThroughPool: Shape = async (dir) => {
  for (let i = 0; i < COUNT; i++) {
    const folder = join(dir, String(i % 256))
    await mkdir(folder, { recursive: true })
    await writeFile(join(folder, `${i}.json.tmp`), ENTRY)
    await rename(join(folder, `${i}.json.tmp`), join(folder, `${i}.json`))
  }
}

const entrySync: Shape = async (dir) => {
  for (let i = 0; i < COUNT; i++) {
    const folder = join(dir, String(i % 256))
    mkdirSync(folder, { recursive: true })
    writeFileSync(join(folder, `${i}.json.tmp`), ENTRY)
    renameSync(join(folder, `${i}.json.tmp`), join(folder, `${i}.json`))
  }
}

async function measure(shape: Shape): Promise<{ cpuMicros: number; wallMicros: number }> {
  const cpu: number[] = []
  const wall: number[] = []
  for (let round = 0; round < ROUNDS; round++) {
    const dir = await mkdtemp(join(tmpdir(), 'convy-bench-fs-'))
    const started = performance.now()
    const before = process.cpuUsage()
    await shape(dir)
    const used = process.cpuUsage(before)
    wall.push(((performance.now() - started) * 1000) / COUNT)
    cpu.push((used.user + used.system) / COUNT)
    rmSync(dir, { recursive: true, force: true })
  }
  return { cpuMicros: median(cpu), wallMicros: median(wall) }
}

console.log(`${COUNT} writes of each shape, median of ${ROUNDS} rounds; µs per write\n`)
console.log('                                  CPU     wall')
for (const [name, shape] of [
  ['attempt line, thread pool', appendThroughPool],
  ['attempt line, synchronous', appendSync],
  ['cache entry, thread pool', entryThroughPool],
  ['cache entry, synchronous', entrySync],
] as const) {
  const { cpuMicros, wallMicros } = await measure(shape)
  console.log(`  ${name.padEnd(28)} ${cpuMicros.toFixed(1).padStart(7)}  ${wallMicros.toFixed(1).padStart(7)}`)
}
