import { closeSync, fsyncSync, openSync, writeSync } from 'node:fs'
import { rm, rmdir } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { removeTemporaries, writeFileAtomic } from '../../base/shared/atomic-file.ts'
import { acquireLock, type FolderLock, type Writer } from './folder-lock.ts'
import { readManifest } from './read-run.ts'
import type { Attempt, RunManifest, RunState } from './records.ts'
import type { AdaptiveScenarioRecord } from './adaptive-record.ts'
import { ATTEMPTS_FILE, claimRunFolder, LOCK_FILE, RUN_FILE, type RandomHex } from './run-folder.ts'
import { repairTail } from './repair-tail.ts'

/**
 * Writes a run folder as the run goes: run.json (replaced atomically, so it is never half-written)
 * and attempts.jsonl, one whole line per finished attempt, written at once, so attempts that end at
 * the same moment never interleave. A journal holds the folder's lock from the moment it is made
 * until `release()`: a second process refuses to write the run meanwhile.
 */
export class RunJournal {
  /** attempts.jsonl, open for appending from the first attempt to `close()`. */
  private attempts: number | null = null
  private appended = 0

  private constructor(
    readonly dir: string,
    private manifest: RunManifest,
    private readonly lock: FolderLock,
    /**
     * Every line of attempts.jsonl was written by this journal, in this process: a new run, not a
     * resumed one. Reading it back need not check each line against the schema (read-run.ts).
     */
    readonly wroteEveryLine: boolean,
    /** The uppermost folder `create` made above the run's own (see RunLocation). */
    private readonly madeParent?: string,
  ) {}

  /**
   * A new run in a folder of its own under resultsDir. The manifest's id is kept unless a folder of
   * that name exists already; then the run gets a fresh id (see `current.id`).
   */
  static async create(resultsDir: string, manifest: RunManifest, writer: Writer, random?: RandomHex): Promise<RunJournal> {
    const claimed = await claimRunFolder(resultsDir, manifest.id, manifest.agent.name, new Date(manifest.startedAt), random)
    const lock = await lockRun(claimed.dir, claimed.id, writer)
    const journal = new RunJournal(claimed.dir, { ...manifest, id: claimed.id }, lock, true, claimed.madeParent)
    try {
      await writeManifest(claimed.dir, journal.manifest)
    } catch (error) {
      await lock.release()
      throw error
    }
    return journal
  }

  /**
   * Takes an existing run for writing: locks it, then reads run.json and repairs the end of
   * attempts.jsonl (a torn last line is cut, a whole one missing its newline is kept). Read the
   * attempts after this, not before: until the lock is held another process may be adding some.
   */
  static async open(dir: string, writer: Writer, what = dir): Promise<RunJournal> {
    const lock = await lockRun(dir, what, writer)
    try {
      const manifest = await readManifest(dir)
      await repairTail(join(dir, ATTEMPTS_FILE))
      return new RunJournal(dir, manifest, lock, false)
    } catch (error) {
      await lock.release()
      throw error
    }
  }

  get current(): RunManifest {
    return this.manifest
  }

  /**
   * Records an adaptive run's scenario: the attempts the rule gave it and why it stopped (issue 39).
   * Writes of run.json are chained, so decisions taken at the same moment never overwrite each other.
   */
  async recordAdaptive(scenario: string, entry: AdaptiveScenarioRecord): Promise<void> {
    this.manifest = { ...this.manifest, adaptive: { scenarios: { ...this.manifest.adaptive?.scenarios, [scenario]: entry } } }
    const manifest = this.manifest
    this.manifestWrites = this.manifestWrites.then(() => writeManifest(this.dir, manifest))
    await this.manifestWrites
  }
  private manifestWrites: Promise<void> = Promise.resolve()

  /** Changes a setting a resume may change (the budget). */
  async updateSettings(settings: Partial<RunManifest['settings']>): Promise<void> {
    this.manifest = { ...this.manifest, settings: { ...this.manifest.settings, ...settings } }
    await writeManifest(this.dir, this.manifest)
  }

  /**
   * Adds an attempt's line. Written synchronously: a line of a few KB reaches the system's page cache
   * in about 10 µs of CPU, while a write through libuv's thread pool cost 110–140 µs here, nearly all
   * of it handing the call to a worker thread and back (bench/fs-writes.ts). A failed write rejects
   * (async: a throw becomes the promise's rejection); the next one is tried as usual.
   */
  async append(attempt: Attempt): Promise<void> {
    this.appended++
    this.attempts ??= openSync(join(this.dir, ATTEMPTS_FILE), 'a')
    writeWhole(this.attempts, `${JSON.stringify(attempt)}\n`)
  }

  /** The manifest as it will be in `state`, without writing it: a report can show it before run.json says so. */
  withState(state: RunState, finishedAt: Date | null = null, stoppedFor: RunManifest['stoppedFor'] = null): RunManifest {
    return { ...this.manifest, state, finishedAt: finishedAt ? finishedAt.toISOString() : null, stoppedFor }
  }

  async setState(state: RunState, finishedAt: Date | null = null, stoppedFor: RunManifest['stoppedFor'] = null): Promise<void> {
    this.manifest = this.withState(state, finishedAt, stoppedFor)
    await writeManifest(this.dir, this.manifest)
  }

  /** Flushes and closes attempts.jsonl. The lock stays held: the state and the report come after. */
  async close(): Promise<void> {
    const attempts = this.attempts
    this.attempts = null
    if (attempts === null) return
    try {
      fsyncSync(attempts)
    } catch {
      // Not every file system can sync; the lines are written all the same.
    }
    closeSync(attempts)
  }

  /**
   * Removes a run folder made by `create` before anything was played in it (the models' gateway,
   * checked while the folder was made, refused): it holds run.json and the lock, nothing recorded.
   */
  async discard(): Promise<void> {
    if (!this.wroteEveryLine || this.appended > 0) throw new Error(`${this.dir}: only a new run with no attempt may be discarded`)
    await this.release()
    await rm(this.dir, { recursive: true, force: true })
    // The folders made to hold it go too, unless another run is in them by now (rmdir refuses).
    if (this.madeParent === undefined) return
    for (let folder = dirname(this.dir); ; folder = dirname(folder)) {
      try {
        await rmdir(folder)
      } catch {
        return
      }
      if (folder === this.madeParent || dirname(folder) === folder) return
    }
  }

  /** Closes and lets other processes write the run. Safe to call more than once. */
  async release(): Promise<void> {
    try {
      await this.close()
    } finally {
      await this.lock.release()
    }
  }
}

/**
 * Locks a run folder for this process. Whatever temporaries are in it then were left by a writer that
 * died mid-write (no live writer can be there), so they are removed.
 */
export async function lockRun(dir: string, what: string, writer: Writer): Promise<FolderLock> {
  const lock = await acquireLock(join(dir, LOCK_FILE), writer, new Date(), `run ${what}`)
  await removeTemporaries(dir, () => true)
  return lock
}

async function writeManifest(dir: string, manifest: RunManifest): Promise<void> {
  await writeFileAtomic(join(dir, RUN_FILE), `${JSON.stringify(manifest, null, 2)}\n`)
}

/** Writes all of `text`: a write to a file may take less than it was given (a signal, a full disk). */
function writeWhole(fd: number, text: string): void {
  const bytes = Buffer.from(text)
  for (let at = 0; at < bytes.length; ) {
    const wrote = writeSync(fd, bytes, at)
    if (wrote === 0) throw new Error(`${ATTEMPTS_FILE}: the system took none of a line`)
    at += wrote
  }
}
