import { isAbsolute, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { errorMessage } from '../../../base/shared/errors.ts'

/**
 * What Node says when it cannot import an agent module is exact but names no cure, and names files
 * by absolute path. These messages say which file, why, and what to change; the same in the action
 * and on a laptop, since both load the module the same way.
 */
export const INSTALL_ESBUILD = 'or install esbuild in the project to compile it (npm install --save-dev esbuild; in a workflow, run `npm ci` before the convy step)'

const SYNTAX: [RegExp, string, string][] = [
  [/\benum\b/, 'an enum', "use a const object instead (const Mood = { Happy: 'happy' } as const)"],
  [/\bnamespace\b/, 'a namespace', 'use a module or a plain object instead'],
  [/\bparameter propert/, 'a parameter property (constructor(private x: …))', 'declare the field and assign it in the constructor instead'],
]

/** True for an error esbuild would not have: syntax Node's type stripping cannot run, or a .ts file Node cannot import at all. */
export function esbuildWouldCompile(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | undefined)?.code
  return code === 'ERR_UNSUPPORTED_TYPESCRIPT_SYNTAX' || (code === 'ERR_UNKNOWN_FILE_EXTENSION' && /\.m?ts\b/.test(errorMessage(error)))
}

/** The message for a module Node could not import: `shown` is the module as the user named it. */
export function loadFailure(error: unknown, shown: string, projectDir: string): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code
  const message = errorMessage(error)
  const path = (file: string) => {
    const absolute = file.startsWith('file:') ? fileURLToPath(file) : file
    const inProject = relative(projectDir, absolute)
    return isAbsolute(absolute) && !inProject.startsWith('..') ? inProject.replaceAll('\\', '/') : absolute
  }
  if (code === 'ERR_UNSUPPORTED_TYPESCRIPT_SYNTAX') {
    // The stack's first line is where: "/project/agents/moods.ts:3".
    const where = /^(.+?\.m?ts):(\d+)$/m.exec((error as Error).stack ?? '')
    const at = where ? `${path(where[1]!)}:${where[2]}` : shown
    const known = SYNTAX.find(([pattern]) => pattern.test(message))
    if (known) return `${at} uses ${known[1]}, which Node's type stripping cannot run: ${known[2]}, ${INSTALL_ESBUILD}`
    return `${at}: ${message}; Node runs only TypeScript whose types can be erased: rewrite it, ${INSTALL_ESBUILD}`
  }
  if (code === 'ERR_UNKNOWN_FILE_EXTENSION' && /\.m?ts\b/.test(message)) {
    return `${shown} imports TypeScript, which this Node cannot run itself: use Node 22.18 or newer, ${INSTALL_ESBUILD}`
  }
  if (code === 'ERR_MODULE_NOT_FOUND') {
    const missing = /^Cannot find module '([^']+)' imported from (.+)$/m.exec(message)
    if (missing) {
      return `${path(missing[2]!)} imports ${path(missing[1]!)}, which is not there (also looked for it with .ts, .mts, .js, .mjs and for a folder with an index file)`
    }
    const pkg = /^Cannot find package '([^']+)' imported from (.+)$/m.exec(message)
    if (pkg) {
      return `${path(pkg[2]!)} imports the package ${pkg[1]}, which is not installed in the project: add it to package.json and install it (in a workflow, run \`npm ci\` before the convy step)`
    }
  }
  if (/module 'convy-ci' does not provide an export named/.test(message)) {
    return `${shown} could not be loaded: ${message} (types such as Agent must be imported with \`import type { … } from 'convy-ci'\`)`
  }
  return `${shown} could not be loaded: ${message}`
}
