import { randomBytes } from 'node:crypto'
import { readdir, rename, rm, stat, writeFile } from 'node:fs/promises'
import { basename, dirname, join } from 'node:path'

/**
 * Files that readers must never see half-written (run.json, report.html, index.html, compare pages)
 * are written to a temporary file beside them and renamed into place. Every writer gets its own
 * temporary name, so two processes writing the same page never write into one file; the last rename
 * wins and each rename puts a whole page in place.
 */

const TEMPORARY_SUFFIX = '.tmp'

/** `<file>.<12 hex>.tmp`, beside the file: a rename within one folder is atomic. */
export function temporaryPath(file: string): string {
  return `${file}.${randomBytes(6).toString('hex')}${TEMPORARY_SUFFIX}`
}

/** Whether `name` is a temporary of `target` (a file name, not a path), as temporaryPath makes them. */
export function isTemporaryOf(name: string, target: string): boolean {
  return name.startsWith(`${target}.`) && name.endsWith(TEMPORARY_SUFFIX)
}

export async function writeFileAtomic(file: string, data: string | Uint8Array): Promise<void> {
  const temporary = temporaryPath(file)
  try {
    await writeFile(temporary, data)
    await rename(temporary, file)
  } catch (error) {
    await rm(temporary, { force: true })
    throw error
  }
}

/**
 * Removes what a killed writer left: temporaries in `dir` whose names `matches` accepts and that are
 * older than `minAgeMs` (0: any; only safe when no other writer can be at work there, i.e. under the
 * folder's lock). Returns how many were removed. Best effort: a file that cannot be removed stays.
 */
export async function removeTemporaries(dir: string, matches: (name: string) => boolean, minAgeMs = 0, now = Date.now()): Promise<number> {
  let names: string[]
  try {
    names = await readdir(dir)
  } catch {
    return 0
  }
  let removed = 0
  for (const name of names.filter((n) => n.endsWith(TEMPORARY_SUFFIX) && matches(n))) {
    const path = join(dir, name)
    try {
      if (minAgeMs > 0 && now - (await stat(path)).mtimeMs < minAgeMs) continue
      await rm(path, { force: true })
      removed++
    } catch {
      // gone already, or not ours to remove
    }
  }
  return removed
}

/** Older than this, a temporary in a folder no lock guards was left by a writer that died. */
export const STRAY_TEMPORARY_AGE_MS = 60 * 60 * 1000

/** Temporaries of one target file, left more than `minAgeMs` ago: for folders no lock guards (results/, compare/). */
export async function removeOldTemporariesOf(file: string, minAgeMs: number): Promise<number> {
  const target = basename(file)
  return removeTemporaries(dirname(file), (name) => isTemporaryOf(name, target), minAgeMs)
}
