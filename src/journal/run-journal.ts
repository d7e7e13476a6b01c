import { randomBytes } from 'node:crypto'
import { mkdir, open, readFile, rename, stat, truncate, writeFile, type FileHandle } from 'node:fs/promises'
import { join } from 'node:path'
import type { Attempt, RunManifest, RunState } from './records.ts'
import { ATTEMPTS_FILE, RUN_FILE } from './run-folder.ts'

/**
 * Writes a run folder as the run goes: run.json (replaced atomically, so it is never half-written)
 * and attempts.jsonl, one whole line per finished attempt. Appends go through one queue, so attempts
 * that end at the same moment never interleave.
 */
export class RunJournal {
  private queue: Promise<void> = Promise.resolve()

  private constructor(
    readonly dir: string,
    private manifest: RunManifest,
    private readonly attempts: FileHandle,
  ) {}

  static async create(dir: string, manifest: RunManifest): Promise<RunJournal> {
    await mkdir(dir, { recursive: true })
    await writeManifest(dir, manifest)
    return new RunJournal(dir, manifest, await open(join(dir, ATTEMPTS_FILE), 'a'))
  }

  /** Reopens a run to add its missing attempts. A torn last line (a killed process) is cut off first. */
  static async reopen(dir: string, manifest: RunManifest): Promise<RunJournal> {
    await dropTornTail(join(dir, ATTEMPTS_FILE))
    const journal = new RunJournal(dir, manifest, await open(join(dir, ATTEMPTS_FILE), 'a'))
    await journal.setState('running')
    return journal
  }

  get current(): RunManifest {
    return this.manifest
  }

  /** Changes a setting a resume may change (the budget). */
  async updateSettings(settings: Partial<RunManifest['settings']>): Promise<void> {
    this.manifest = { ...this.manifest, settings: { ...this.manifest.settings, ...settings } }
    await writeManifest(this.dir, this.manifest)
  }

  append(attempt: Attempt): Promise<void> {
    const line = `${JSON.stringify(attempt)}\n`
    const write = this.queue.then(async () => {
      await this.attempts.write(line)
    })
    // A failed write must not block the next ones; the caller still sees this one fail.
    this.queue = write.catch(() => undefined)
    return write
  }

  async setState(state: RunState, finishedAt: Date | null = null, stoppedFor: RunManifest['stoppedFor'] = null): Promise<void> {
    this.manifest = { ...this.manifest, state, finishedAt: finishedAt ? finishedAt.toISOString() : null, stoppedFor }
    await writeManifest(this.dir, this.manifest)
  }

  async close(): Promise<void> {
    await this.queue
    await this.attempts.sync().catch(() => undefined)
    await this.attempts.close()
  }
}

async function writeManifest(dir: string, manifest: RunManifest): Promise<void> {
  const file = join(dir, RUN_FILE)
  const temporary = `${file}.${randomBytes(4).toString('hex')}.tmp`
  await writeFile(temporary, `${JSON.stringify(manifest, null, 2)}\n`)
  await rename(temporary, file)
}

async function dropTornTail(file: string): Promise<void> {
  let size: number
  try {
    size = (await stat(file)).size
  } catch {
    return
  }
  if (size === 0) return
  const text = await readFile(file)
  if (text[text.length - 1] === 0x0a) return
  await truncate(file, text.lastIndexOf(0x0a) + 1)
}
