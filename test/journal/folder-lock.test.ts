import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { mkdtemp, readdir, readFile, rename, stat, utimes, writeFile } from 'node:fs/promises'
import { hostname, tmpdir } from 'node:os'
import { join } from 'node:path'
import { test } from 'node:test'
import { processWriter } from '../../src/entry/cli/writer.ts'
import { acquireLock, breakStaleLock, FolderLocked, type Writer } from '../../src/records/journal/folder-lock.ts'
import { ExitCode } from '../../src/base/shared/errors.ts'

/** The pid of a process that has ended: a real dead writer. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' })
  return Number(child.stdout)
}

async function lockFile(): Promise<string> {
  return join(await mkdtemp(join(tmpdir(), 'convy-lock-')), 'run.lock')
}

test('a second writer is refused with exit 2, naming who holds the lock and since when', async () => {
  const file = await lockFile()
  const first = await acquireLock(file, processWriter('convy-ci resume ab12'), new Date('2026-12-01T03:00:00Z'), 'run bot/x_ab12')
  const refused = await acquireLock(file, processWriter('convy-ci report'), new Date(), 'run bot/x_ab12').then(
    () => assert.fail('the second writer got the lock'),
    (error: unknown) => error,
  )
  assert.ok(refused instanceof FolderLocked)
  assert.equal(refused.exitCode, ExitCode.BadInput)
  assert.equal(refused.message, `run bot/x_ab12 is being written by pid ${process.pid} on ${hostname()} (convy-ci resume ab12) since 2026-12-01T03:00:00.000Z; wait for it to end. If no such process is running, delete ${file}`)
  await first.release()
  const next = await acquireLock(file, processWriter('convy-ci report'), new Date(), 'run bot/x_ab12')
  assert.equal(JSON.parse(await readFile(file, 'utf8')).command, 'convy-ci report')
  await next.release()
  assert.deepEqual(await readdir(join(file, '..')), [], 'the lock and its temporaries are gone')
})

test('a lock left by a process that died is taken over', async () => {
  const file = await lockFile()
  const dead = deadPid()
  await writeFile(file, JSON.stringify({ pid: dead, host: hostname(), command: 'convy-ci run bot', since: '2026-12-01T02:00:00.000Z', nonce: 'n' }))
  const lock = await acquireLock(file, processWriter('convy-ci resume ab12'), new Date(), 'run r')
  const holder = JSON.parse(await readFile(file, 'utf8'))
  assert.equal(holder.pid, process.pid)
  assert.equal(holder.command, 'convy-ci resume ab12')
  await lock.release()
})

test('many writers meeting one stale lock at once: exactly one takes it over, every time', async () => {
  for (let round = 0; round < 10; round++) {
    const file = await lockFile()
    const dead = 4_000_000 + round
    await writeFile(file, JSON.stringify({ pid: dead, host: hostname(), command: 'convy-ci run bot', since: '2026-12-01T02:00:00.000Z', nonce: 'n' }))
    // Distinct writers, as separate processes would be: each is alive, only the old holder is dead.
    const writers: Writer[] = Array.from({ length: 12 }, (_, i) => ({ pid: 5_000_000 + i, command: `writer ${i}`, isAlive: (pid) => pid !== dead }))
    // Staggered by up to a few milliseconds, so one writer's checks fall between another's steps.
    const outcomes = await Promise.allSettled(writers.map(async (w, i) => {
      await new Promise((done) => setTimeout(done, (i * 7 + round * 3) % 5))
      return acquireLock(file, w, new Date(), 'run r')
    }))
    const winners = outcomes.filter((o) => o.status === 'fulfilled')
    assert.equal(winners.length, 1, `round ${round}: ${winners.length} writers hold the lock`)
    const winner = (winners[0] as PromiseFulfilledResult<Awaited<ReturnType<typeof acquireLock>>>).value
    for (const o of outcomes) if (o.status === 'rejected') assert.match(String(o.reason), new RegExp(`being written by pid ${winner.holder.pid} `))
    assert.equal(JSON.parse(await readFile(file, 'utf8')).nonce, winner.holder.nonce)
    await winner.release()
    assert.deepEqual(await readdir(join(file, '..')), [], `round ${round}: something was left behind`)
  }
})

test('a writer that judged a lock stale never removes the fresh lock another writer made since', async () => {
  const file = await lockFile()
  await writeFile(file, JSON.stringify({ pid: deadPid(), host: hostname(), command: 'convy-ci run bot', since: '2026-12-01T02:00:00.000Z', nonce: 'old' }))
  const staleIno = (await stat(file)).ino
  // Meanwhile another writer took the stale lock over: its lock is a new file under the same name.
  await writeFile(`${file}.fresh`, JSON.stringify({ pid: process.pid, host: hostname(), command: 'convy-ci resume', since: '2026-12-01T03:00:00.000Z', nonce: 'fresh' }))
  await rename(`${file}.fresh`, file)
  await breakStaleLock(file, { ino: staleIno, nonce: 'old' })
  assert.equal(JSON.parse(await readFile(file, 'utf8')).nonce, 'fresh')
  assert.deepEqual(await readdir(join(file, '..')), ['run.lock'])
})

test('a fresh lock that got the stale lock’s inode number back is not taken for it', async () => {
  // File systems hand a freed inode number to the next file: the fresh lock is written into the very
  // inode here, which is what a reused number looks like to a writer that saw the stale one.
  const file = await lockFile()
  await writeFile(file, JSON.stringify({ pid: deadPid(), host: hostname(), command: 'convy-ci run bot', since: '2026-12-01T02:00:00.000Z', nonce: 'old' }))
  const staleIno = (await stat(file)).ino
  await writeFile(file, JSON.stringify({ pid: process.pid, host: hostname(), command: 'convy-ci resume', since: '2026-12-01T03:00:00.000Z', nonce: 'fresh' }))
  assert.equal((await stat(file)).ino, staleIno)
  await breakStaleLock(file, { ino: staleIno, nonce: 'old' })
  assert.equal(JSON.parse(await readFile(file, 'utf8')).nonce, 'fresh')
})

test('a lock held on another host is never taken over; an unreadable one only once it is old', async () => {
  const file = await lockFile()
  await writeFile(file, JSON.stringify({ pid: deadPid(), host: 'ci-runner-7', command: 'convy-ci run bot', since: '2026-12-01T02:00:00.000Z', nonce: 'n' }))
  await assert.rejects(acquireLock(file, processWriter('convy-ci resume'), new Date(), 'run r'), /being written by pid \d+ on ci-runner-7 \(convy-ci run bot\)/)

  await writeFile(file, '')
  await assert.rejects(acquireLock(file, processWriter('convy-ci resume'), new Date(), 'run r'), /being written by another process/)
  const old = new Date(Date.now() - 60_000)
  await utimes(file, old, old)
  const lock = await acquireLock(file, processWriter('convy-ci resume'), new Date(), 'run r')
  await lock.release()
})
