import { existsSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { extname, isAbsolute, join, relative, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import * as publicApi from '../../index.ts'
import { errorMessage, InputError } from '../../shared/errors.ts'
import { sha256 } from '../../shared/fingerprint.ts'
import type { Agent } from '../agent.ts'
import { bundleModule, type EsbuildApi } from './bundle-module.ts'
import { agentExport } from '../checked-agent.ts'
import { findEsbuild } from './find-esbuild.ts'
import { publicApiModuleSource, publishPublicApi } from './public-api.ts'
import { redirectConvyCiImports } from './resolve-hook.ts'

/**
 * Loads a user's agent module (`agents/custom.ts`) with no build step on their side. With esbuild
 * (installed from npm) the module is bundled, so any TypeScript works; without it (the action) Node
 * imports the file itself, which needs JavaScript or a Node that strips types. Either way the module's
 * `import … from 'convy-ci'` gets the running convy-ci.
 */
export interface ModuleAgentOptions {
  /** The folder of convy.yml: module paths are relative to it, and bundles are written under it. */
  projectDir: string
  /** Node strips TypeScript types itself (`process.features.typescript`, Node ≥ 22.18). */
  canStripTypes: boolean
  /** Names the bundle in `.convy/build/`; default: derived from the module's path. */
  buildName?: string
  /** Where esbuild comes from; default: next to convy-ci, then the project. Tests pass `async () => null`. */
  loadEsbuild?: (projectDir: string) => Promise<EsbuildApi | null>
}

export interface LoadedModuleAgent {
  agent: Agent
  /** sha256 over the module's source files (path and content), for run.json and resume. */
  fingerprint: string
  /** How it was loaded, for messages about what to install. */
  loadedBy: 'esbuild' | 'node'
}

const EXTENSIONS = ['.ts', '.mts', '.js', '.mjs']
const TYPESCRIPT = ['.ts', '.mts']

export async function loadModuleAgent(modulePath: string, options: ModuleAgentOptions): Promise<LoadedModuleAgent> {
  const { projectDir } = options
  const entry = resolve(projectDir, modulePath)
  // Messages name the file as the user knows it: relative to their project.
  const shown = isAbsolute(modulePath) && !relativePath(projectDir, entry).startsWith('../') ? relativePath(projectDir, entry) : modulePath
  if (!EXTENSIONS.includes(extname(entry))) {
    throw new InputError(`${shown}: an agent module must be a ${EXTENSIONS.join(', ')} file`)
  }
  if (!existsSync(entry)) throw new InputError(`${shown}: no such file (looked for ${entry})`)

  const api = { ...publicApi }
  publishPublicApi(api)
  const apiModuleSource = publicApiModuleSource(api)
  const esbuild = await (options.loadEsbuild ?? findEsbuild)(projectDir)

  let esbuildFailure: string | undefined
  if (esbuild !== null) {
    const outfile = join(projectDir, '.convy', 'build', `${safeName(options.buildName ?? shown)}.mjs`)
    try {
      const bundle = await bundleModule(esbuild, { entry, outfile, projectDir, apiModuleSource })
      const exports = await importModule(bundle.url, shown)
      return { agent: agentExport(exports, shown), fingerprint: await fingerprintSources(projectDir, bundle.sources), loadedBy: 'esbuild' }
    } catch (error) {
      if (error instanceof InputError) throw error
      // esbuild is there but cannot run (its native binary is missing): Node may still manage alone.
      esbuildFailure = errorMessage(error)
    }
  }

  if (TYPESCRIPT.includes(extname(entry)) && !options.canStripTypes) {
    const why = esbuildFailure === undefined ? 'esbuild is not installed' : `esbuild failed (${esbuildFailure})`
    throw new InputError(
      `${shown} is TypeScript, but ${why} and this Node cannot run TypeScript itself. ` +
        'Install esbuild in the project (npm install --save-dev esbuild), use Node 22.18 or newer, or write the agent in JavaScript.',
    )
  }
  redirectConvyCiImports(apiModuleSource)
  const source = await readFile(entry)
  const url = pathToFileURL(entry)
  url.searchParams.set('v', sha256(source).slice(0, 16))
  const exports = await importModule(url.href, shown)
  return { agent: agentExport(exports, shown), fingerprint: await fingerprintSources(projectDir, [relativePath(projectDir, entry)]), loadedBy: 'node' }
}

async function importModule(url: string, modulePath: string): Promise<Record<string, unknown>> {
  try {
    return (await import(url)) as Record<string, unknown>
  } catch (error) {
    throw new InputError(`${modulePath} could not be loaded: ${errorMessage(error)}${loadHint(error)}`, { cause: error })
  }
}

// What Node says when it imports TypeScript itself is exact but does not say what to do.
function loadHint(error: unknown): string {
  if (!(error instanceof Error)) return ''
  if ((error as NodeJS.ErrnoException).code === 'ERR_UNSUPPORTED_TYPESCRIPT_SYNTAX') {
    return ' (Node runs only TypeScript whose types can be erased: no enum, namespace or parameter properties. Install esbuild in the project to compile the rest.)'
  }
  if (/module 'convy-ci' does not provide an export named/.test(error.message)) {
    return " (types such as Agent must be imported with `import type { … } from 'convy-ci'`)"
  }
  return ''
}

/** The same for a module whether esbuild bundled it or Node imported it, as long as it is one file. */
async function fingerprintSources(projectDir: string, sources: readonly string[]): Promise<string> {
  const parts = await Promise.all(
    [...sources].sort().map(async (path) => `${path}\0${await readFile(resolve(projectDir, path), 'utf8')}\0`),
  )
  return sha256(parts.join(''))
}

function relativePath(projectDir: string, file: string): string {
  return relative(projectDir, file).replaceAll('\\', '/')
}

function safeName(name: string): string {
  return name.replace(/^[./\\]+/, '').replace(/[^\w.-]+/g, '_')
}
