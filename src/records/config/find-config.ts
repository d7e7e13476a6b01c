import { access } from 'node:fs/promises'
import { dirname, join, resolve } from 'node:path'

/**
 * The convy.yml a test file means: the nearest one from `cwd` upward, as tools that read a project
 * file do (a test runner's working directory is often the repository root or a package in it).
 */
export async function findConfig(cwd: string): Promise<string | undefined> {
  for (let dir = resolve(cwd); ; dir = dirname(dir)) {
    const candidate = join(dir, 'convy.yml')
    try {
      await access(candidate)
      return candidate
    } catch {
      // Not here: one folder up.
    }
    if (dirname(dir) === dir) return undefined
  }
}
