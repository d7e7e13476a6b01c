import { randomBytes } from 'node:crypto'
import { link, open, readFile, rm, stat, writeFile } from 'node:fs/promises'
import { hostname } from 'node:os'
import * as z from '../../base/shared/zod.ts'
import { InputError } from '../../base/shared/errors.ts'
import { temporaryPath } from '../../base/shared/atomic-file.ts'

/**
 * One writer per run folder. A lock is a small JSON file naming its holder (pid, host, command,
 * since). It is created atomically — written whole to a temporary file, then hard-linked to its
 * name, which fails if the name exists — so a reader never sees a half-written lock and two writers
 * never both create it. A lock whose holder is a process on this host that no longer exists (killed,
 * crashed) is stale and is taken over; a lock held by another host is never guessed at.
 */

/** Who is writing: the process, as the CLI or the action sees it. Domain code gets it as a parameter. */
export interface Writer {
  pid: number
  /** What the process was asked to do, for the message a second writer gets: `convy-ci resume a1b2`. */
  command: string
  /** Whether a process with this pid exists on this host. */
  isAlive(pid: number): boolean
  /** Default: os.hostname(). */
  host?: string
}

const HolderSchema = z.object({ pid: z.int(), host: z.string(), command: z.string(), since: z.string(), nonce: z.string() })
export type LockHolder = z.infer<typeof HolderSchema>

/** A folder is being written by another process. Exit 2: nothing was done. */
export class FolderLocked extends InputError {
  readonly holder: LockHolder | null
  constructor(message: string, holder: LockHolder | null) {
    super(message)
    this.holder = holder
  }
}

export interface FolderLock {
  readonly file: string
  readonly holder: LockHolder
  /** Removes the lock if it is still this one. Safe to call more than once. */
  release(): Promise<void>
}

/** A lock file being created without hard links is empty for an instant; past this age it is a dead writer's. */
const UNREADABLE_GRACE_MS = 10_000
/** A breaker is held for milliseconds; one this old was left by a writer that died holding it. */
const BREAKER_STALE_MS = 30_000
/** How long writers meeting one stale lock may take to settle who takes it over. */
const SETTLE_MS = 5_000

export function describeHolder(holder: LockHolder): string {
  return `pid ${holder.pid} on ${holder.host} (${holder.command}) since ${holder.since}`
}

/**
 * Takes the lock `file` for `writer`, taking over a stale one; throws FolderLocked naming the holder
 * when a live process holds it. `what` names the locked thing in that message ("run x").
 */
export async function acquireLock(file: string, writer: Writer, now: Date, what: string): Promise<FolderLock> {
  const me: LockHolder = { pid: writer.pid, host: writer.host ?? hostname(), command: writer.command, since: now.toISOString(), nonce: randomBytes(8).toString('hex') }
  const text = `${JSON.stringify(me)}\n`
  const deadline = Date.now() + SETTLE_MS
  while (Date.now() < deadline) {
    if (await createExclusive(file, text)) return heldLock(file, me)
    const seen = await readLock(file)
    if (seen === 'gone') continue
    const stale = staleness(seen, me, writer)
    if (stale === null) {
      const who = seen.holder ? describeHolder(seen.holder) : 'another process'
      throw new FolderLocked(`${what} is being written by ${who}; wait for it to end. If no such process is running, delete ${file}`, seen.holder)
    }
    await breakStaleLock(file, { ino: seen.ino, nonce: seen.holder?.nonce ?? null })
  }
  throw new FolderLocked(`${what}: could not take ${file} within ${SETTLE_MS / 1000} s (other writers keep taking it)`, null)
}

/** Null when the lock is live; otherwise why it is stale. */
function staleness(seen: SeenLock, me: LockHolder, writer: Writer): string | null {
  if (!seen.holder) return seen.ageMs > UNREADABLE_GRACE_MS ? 'unreadable' : null
  if (seen.holder.host !== me.host) return null
  // Our own pid holds it: another writer in this very process, alive by definition.
  if (seen.holder.pid === me.pid) return null
  return writer.isAlive(seen.holder.pid) ? null : 'dead'
}

async function createExclusive(file: string, text: string): Promise<boolean> {
  const temporary = temporaryPath(file)
  await writeFile(temporary, text)
  try {
    await link(temporary, file)
    return true
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'EEXIST') return false
    // A lock holder cleaning the folder removed our temporary before we linked it: try again.
    if (code === 'ENOENT') return false
    // No hard links on this filesystem: O_EXCL creates the name atomically (empty for an instant).
    if (code === 'EPERM' || code === 'ENOTSUP' || code === 'EOPNOTSUPP' || code === 'ENOSYS') return await createWithExcl(file, text)
    throw error
  } finally {
    await rm(temporary, { force: true })
  }
}

async function createWithExcl(file: string, text: string): Promise<boolean> {
  let handle
  try {
    handle = await open(file, 'wx')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false
    throw error
  }
  try {
    await handle.writeFile(text)
  } finally {
    await handle.close()
  }
  return true
}

interface SeenLock {
  holder: LockHolder | null
  ino: number
  ageMs: number
}

async function readLock(file: string): Promise<SeenLock | 'gone'> {
  let handle
  try {
    handle = await open(file, 'r')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 'gone'
    throw error
  }
  try {
    const info = await handle.stat()
    const text = await handle.readFile('utf8')
    let holder: LockHolder | null = null
    try {
      const parsed = HolderSchema.safeParse(JSON.parse(text))
      if (parsed.success) holder = parsed.data
    } catch {
      // half-written or not ours: judged by its age
    }
    return { holder, ino: info.ino, ageMs: Date.now() - info.mtimeMs }
  } finally {
    await handle.close()
  }
}

/** Which lock a writer judged stale: its inode, and its holder's nonce (null when it was unreadable). */
export interface StaleLock {
  ino: number
  nonce: string | null
}

/**
 * Removes the stale lock a writer saw, and nothing else. Only one writer at a time may remove a
 * lock: the one that holds the breaker (`<lock>.break.tmp`, created like the lock). Under it, the
 * lock is read again and removed only if it is still the one judged stale. The inode alone does not
 * say so: another breaker may have removed that lock and a new writer taken the name since, and file
 * systems hand a freed inode number to the next file; the nonce, random per lock, does. A writer
 * that finds the breaker taken waits a moment and looks again.
 */
export async function breakStaleLock(file: string, stale: StaleLock): Promise<void> {
  const breaker = `${file}.break.tmp`
  if (!(await createExclusive(breaker, 'breaking a stale lock\n'))) {
    // Held for a few milliseconds by a live writer; older, by one killed while it held it.
    const age = await stat(breaker).then(
      (info) => Date.now() - info.mtimeMs,
      () => 0,
    )
    if (age > BREAKER_STALE_MS) await rm(breaker, { force: true })
    else await new Promise((done) => setTimeout(done, 2))
    return
  }
  try {
    const current = await readLock(file)
    if (current !== 'gone' && current.ino === stale.ino && (current.holder?.nonce ?? null) === stale.nonce) await rm(file, { force: true })
  } finally {
    await rm(breaker, { force: true })
  }
}

function heldLock(file: string, me: LockHolder): FolderLock {
  let released = false
  return {
    file,
    holder: me,
    async release() {
      if (released) return
      released = true
      try {
        const current = HolderSchema.safeParse(JSON.parse(await readFile(file, 'utf8')))
        // Never remove a lock that is not ours (it was taken over while we held it).
        if (current.success && current.data.nonce === me.nonce) await rm(file, { force: true })
      } catch {
        // already gone
      }
    },
  }
}
