import { randomUUID } from 'node:crypto'
import { mkdir, rename, writeFile } from 'node:fs/promises'
import { dirname } from 'node:path'
import { pathToFileURL } from 'node:url'
import type { BuildFailure, Message } from 'esbuild'
import { FileError, InputError } from '../../../base/shared/errors.ts'
import { API_NAMESPACE, convyCiApiPlugin, moduleLocationPlugin } from './esbuild-plugins.ts'

/**
 * Compiles a user's agent module (TypeScript or JavaScript, any syntax esbuild knows, enums included)
 * into one ES module. The project's own packages stay imports (`packages: 'external'`), resolved by
 * Node from the project's node_modules because the output is written inside the project; `convy-ci`
 * becomes a virtual module that re-exports the running convy-ci's API.
 */
export interface EsbuildApi {
  build: typeof import('esbuild').build
}

export interface BundleRequest {
  /** Absolute path of the agent module. */
  entry: string
  /** Absolute path of the .mjs to write, somewhere under the project. */
  outfile: string
  projectDir: string
  /** Source of the module that `import … from 'convy-ci'` gets. */
  apiModuleSource: string
}

export interface Bundle {
  /** The bundle's file: URL, with a query that changes with its content so a changed module reloads. */
  url: string
  /** The project's files that went into the bundle, relative to the project, '/'-separated. */
  sources: string[]
}

export async function bundleModule(esbuild: EsbuildApi, request: BundleRequest): Promise<Bundle> {
  const { entry, outfile, projectDir } = request
  const result = await esbuild
    .build({
      entryPoints: [entry],
      outfile,
      absWorkingDir: projectDir,
      bundle: true,
      format: 'esm',
      platform: 'node',
      target: 'node20',
      packages: 'external',
      write: false,
      metafile: true,
      logLevel: 'silent',
      plugins: [convyCiApiPlugin(request.apiModuleSource), moduleLocationPlugin()],
    })
    .catch((error: unknown) => {
      if (isBuildFailure(error)) throw compileError(entry, error.errors)
      throw error
    })
  const output = result.outputFiles[0]
  if (output === undefined) throw new InputError(`${entry}: esbuild produced no output`)
  await writeAtomically(outfile, output.contents)
  const url = pathToFileURL(outfile)
  url.searchParams.set('v', output.hash)
  return { url: url.href, sources: Object.keys(result.metafile.inputs).filter((path) => !path.startsWith(`${API_NAMESPACE}:`)) }
}

// Several convy-ci processes (shards on one machine) may build the same agent at once: none may
// ever import a half-written file.
async function writeAtomically(path: string, contents: Uint8Array): Promise<void> {
  await mkdir(dirname(path), { recursive: true })
  const temporary = `${path}.${randomUUID()}.tmp`
  await writeFile(temporary, contents)
  await rename(temporary, path)
}

function isBuildFailure(error: unknown): error is BuildFailure {
  return error instanceof Error && Array.isArray((error as Partial<BuildFailure>).errors)
}

function compileError(entry: string, errors: readonly Message[]): InputError {
  const [first, ...rest] = errors
  if (first?.location) {
    const { file, line, column, lineText } = first.location
    const more = rest.length > 0 ? ` (and ${rest.length} more error${rest.length === 1 ? '' : 's'})` : ''
    return new FileError(file, line, `column ${column + 1}: ${first.text}${more}\n    ${lineText.trim()}`)
  }
  return new InputError(`${entry} could not be compiled: ${errors.map((e) => e.text).join('; ') || 'unknown esbuild error'}`)
}
