import { relative } from 'node:path'

/**
 * The Actions cache as the action uses it: restore a folder by key (newest entry whose key starts
 * with a restore key, else none) and save it under a new key. Entries are immutable and scoped by
 * GitHub: a run reads its own branch's, its base branch's and the default branch's entries, and
 * saves into its own branch (a pull request into refs/pull/N/merge).
 */
export interface ActionsCache {
  /** False where the runner offers no cache service (GHES without it, local runners). */
  available(): boolean
  /** The key that matched, or undefined on a miss. Problems are warnings in the log, not errors. */
  restore(dirs: string[], key: string, restoreKeys: string[]): Promise<string | undefined>
  /** True when an entry was saved. Problems (including a read-only cache) are warnings, not errors. */
  save(dirs: string[], key: string): Promise<boolean>
}

/** What @actions/cache exports, so tests and main.ts can hand in the real module. */
export interface CacheToolkit {
  isFeatureAvailable(): boolean
  restoreCache(paths: string[], primaryKey: string, restoreKeys?: string[]): Promise<string | undefined>
  saveCache(paths: string[], key: string): Promise<number>
}

/**
 * The cache's version of an entry hashes the paths exactly as given, so a restore must name the
 * folders as the save did. They are named relative to the workspace (where tar runs, and the
 * toolkit's working directory), which stays the same from one checkout to the next.
 */
export function actionsCache(toolkit: CacheToolkit, workspace: string): ActionsCache {
  const named = (dirs: string[]) => dirs.map((dir) => relative(workspace, dir).split('\\').join('/') || '.')
  return {
    available: () => toolkit.isFeatureAvailable(),
    restore: (dirs, key, restoreKeys) => toolkit.restoreCache(named(dirs), key, restoreKeys),
    save: async (dirs, key) => (await toolkit.saveCache(named(dirs), key)) !== -1,
  }
}

/**
 * A key part made of a branch or agent name: keys may not hold commas and are at most 512
 * characters, so anything outside a plain name's characters becomes "_".
 */
export function keyPart(text: string): string {
  return text.replace(/[^A-Za-z0-9._/-]/g, '_').slice(0, 100)
}
