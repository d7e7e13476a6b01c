import { createRequire } from 'node:module'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import type { EsbuildApi } from './bundle-module.ts'

/**
 * esbuild is optional at run time: it comes with convy-ci from npm, but it is a native binary that
 * the action's self-contained bundle cannot carry. Look next to convy-ci first, then in the user's
 * project (a workflow that ran `npm ci` may have it there). Null when neither has it.
 */
export async function findEsbuild(projectDir: string): Promise<EsbuildApi | null> {
  const candidates = [
    () => import('esbuild'),
    () => import(pathToFileURL(createRequire(join(projectDir, 'package.json')).resolve('esbuild')).href) as Promise<unknown>,
  ]
  for (const load of candidates) {
    try {
      const loaded = (await load()) as Partial<EsbuildApi> & { default?: Partial<EsbuildApi> }
      const build = loaded.build ?? loaded.default?.build
      if (typeof build === 'function') return { build }
    } catch {
      // Not installed there: absence is the expected case in the action, so try the next place.
    }
  }
  return null
}
