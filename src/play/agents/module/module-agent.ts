import { existsSync, statSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { extname, isAbsolute, join, relative, resolve } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import * as publicApi from '../agent-api.ts'
import { errorMessage, InputError } from '../../../base/shared/errors.ts'
import { sha256 } from '../../../base/shared/fingerprint.ts'
import type { Agent } from '../agent.ts'
import { bundleModule, type EsbuildApi } from './bundle-module.ts'
import { agentExport } from '../checked-agent.ts'
import { findEsbuild } from './find-esbuild.ts'
import { esbuildWouldCompile, loadFailure } from './load-errors.ts'
import { moduleSources } from './module-sources.ts'
import { publicApiModuleSource, publishPublicApi } from './public-api.ts'
import { installAgentResolveHook } from './resolve-hook.ts'

/**
 * Loads a user's agent module (`agents/custom.ts`) with no build step on their side, the same way on
 * a laptop and in the action: Node imports the module itself whenever it can (JavaScript always,
 * TypeScript on Node ≥ 22.18, which strips types), with a resolve hook that finds files as esbuild
 * and editors do. esbuild (installed from npm, or in the project) compiles only what Node cannot run:
 * TypeScript on an older Node, and enums, namespaces and parameter properties. Either way the
 * module's `import … from 'convy-ci'` gets the running convy-ci.
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
  const loaded = await loadModule(modulePath, options, 'an agent module')
  return { agent: agentExport(loaded.exports, loaded.shown), fingerprint: loaded.fingerprint, loadedBy: loaded.loadedBy }
}

/** A user's module loaded as an agent module is (set-up and tear-down functions use it too): its exports, as Node or esbuild gave them. */
export interface LoadedModule {
  exports: Record<string, unknown>
  /** The module's path as the user knows it, for messages. */
  shown: string
  fingerprint: string
  loadedBy: 'esbuild' | 'node'
}

/** `what` names the module in messages: `an agent module`, `a set-up module`. */
export async function loadModule(modulePath: string, options: ModuleAgentOptions, what: string): Promise<LoadedModule> {
  const { projectDir } = options
  const entry = resolve(projectDir, modulePath)
  // Messages name the file as the user knows it: relative to their project.
  const shown = isAbsolute(modulePath) && !relativePath(projectDir, entry).startsWith('../') ? relativePath(projectDir, entry) : modulePath
  if (!EXTENSIONS.includes(extname(entry))) {
    throw new InputError(`${shown}: ${what} must be a ${EXTENSIONS.join(', ')} file`)
  }
  if (!existsSync(entry)) throw new InputError(`${shown}: no such file (looked for ${entry})`)

  const api = { ...publicApi }
  publishPublicApi(api)
  const apiModuleSource = publicApiModuleSource(api)
  const esbuild = await (options.loadEsbuild ?? findEsbuild)(projectDir)
  const typescript = TYPESCRIPT.includes(extname(entry))

  let nodeFailure: unknown
  if (!typescript || options.canStripTypes) {
    const hook = await installAgentResolveHook(apiModuleSource)
    const url = pathToFileURL(entry)
    url.searchParams.set('v', sha256(await readFile(entry)).slice(0, 16))
    try {
      const exports = (await import(url.href)) as Record<string, unknown>
      const sources = await moduleSources(entry, projectDir, (specifier, parent) => hook.agentFile(specifier, parent) ?? existingFile(specifier, parent))
      return { exports, shown, fingerprint: await fingerprintSources(projectDir, sources), loadedBy: 'node' }
    } catch (error) {
      if (error instanceof InputError) throw error
      // What only a compiler can run goes to esbuild when there is one; anything else fails the same
      // way it would in the action.
      if (esbuild === null || !esbuildWouldCompile(error)) throw new InputError(loadFailure(error, shown, projectDir), { cause: error })
      nodeFailure = error
    }
  }

  if (esbuild === null) {
    throw new InputError(
      `${shown} is TypeScript, but esbuild is not installed and this Node cannot run TypeScript itself. ` +
        'Install esbuild in the project (npm install --save-dev esbuild; in a workflow, `npm ci` before the convy step), use Node 22.18 or newer, or write the agent in JavaScript.',
    )
  }
  const outfile = join(projectDir, '.convy', 'build', `${safeName(options.buildName ?? shown)}.mjs`)
  let bundle
  try {
    bundle = await bundleModule(esbuild, { entry, outfile, projectDir, apiModuleSource })
  } catch (error) {
    if (error instanceof InputError) throw error
    // esbuild is there but cannot run (its native binary is missing): say so, and what Node could not do.
    if (nodeFailure !== undefined) throw new InputError(`${loadFailure(nodeFailure, shown, projectDir)} (esbuild is installed but failed: ${errorMessage(error)})`, { cause: error })
    throw new InputError(
      `${shown} is TypeScript, but esbuild failed (${errorMessage(error)}) and this Node cannot run TypeScript itself. ` +
        'Reinstall esbuild (npm install --save-dev esbuild), or use Node 22.18 or newer.',
      { cause: error },
    )
  }
  let exports: Record<string, unknown>
  try {
    exports = (await import(bundle.url)) as Record<string, unknown>
  } catch (error) {
    throw new InputError(loadFailure(error, shown, projectDir), { cause: error })
  }
  return { exports, shown, fingerprint: await fingerprintSources(projectDir, bundle.sources), loadedBy: 'esbuild' }
}

function existingFile(specifier: string, parentURL: string): string | undefined {
  const url = new URL(specifier, parentURL)
  try {
    return statSync(fileURLToPath(url)).isFile() ? url.href : undefined
  } catch {
    return undefined
  }
}

/** The same for a module whether esbuild bundled it or Node imported it. */
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
