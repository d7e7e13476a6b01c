import { createRequire } from 'node:module'

function readVersion(): string {
  if (typeof __CONVY_VERSION__ === 'string') return __CONVY_VERSION__
  // Running from source (tests, tsx): read package.json next to src/.
  const pkg = createRequire(import.meta.url)('../../../package.json') as { version: string }
  return pkg.version
}

export const CONVY_VERSION = readVersion()
