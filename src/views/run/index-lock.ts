import { open, rm, stat } from 'node:fs/promises'

/**
 * Runs that end at the same time each rewrite results/index.html from the run folders they see. Each
 * write is whole (a temporary file and a rename), but the last writer won even when it had listed the
 * folders before another run finished, and that run was missing from the index. Writers now take
 * turns: `index.html.lock` is created exclusively, and whoever holds it lists, renders and renames.
 * A lock older than STALE_MS is a killed writer's (an index takes well under a second to write).
 */
export const STALE_MS = 60_000
const WAIT_MS = 25

export async function withIndexLock<T>(target: string, write: () => Promise<T>, now: () => number = Date.now): Promise<T> {
  const lock = `${target}.lock`
  for (;;) {
    try {
      const handle = await open(lock, 'wx')
      await handle.close()
      break
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
      const since = await stat(lock).then((s) => s.mtimeMs, () => undefined)
      if (since !== undefined && now() - since > STALE_MS) await rm(lock, { force: true })
      else await new Promise((resolve) => setTimeout(resolve, WAIT_MS))
    }
  }
  try {
    return await write()
  } finally {
    await rm(lock, { force: true })
  }
}
