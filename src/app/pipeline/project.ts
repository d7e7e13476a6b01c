import { readFile } from 'node:fs/promises'
import { dirname, join, relative, resolve } from 'node:path'
import { parseEnv } from 'node:util'
import { findConfig, loadProjectConfig, projectSecrets, type ProjectConfig } from '../../records/config/load-config.ts'
import { FROM_DOTENV, type Environment } from '../../records/config/interpolate.ts'
import { InputError } from '../../base/shared/errors.ts'
import type { Redaction } from '../../base/shared/secrets.ts'
import type { Output, PipelineContext } from './context.ts'

export interface Project {
  config: ProjectConfig
  projectDir: string
  scenariosDir: string
  resultsDir: string
  env: Environment
}

/**
 * The project whose convy.yml is `options.config`, or else the nearest one from the working folder
 * upward (a command run in `scenarios/` or a package of a monorepo finds its project, as the library
 * does); one found above the working folder is named on `stderr`, so no one wonders which was read.
 */
export async function openProject(ctx: Pick<PipelineContext, 'cwd' | 'env'> & { stderr?: Output }, options: { config?: string | undefined; results?: string | undefined }): Promise<Project> {
  const found = options.config === undefined ? await findConfig(ctx.cwd) : undefined
  if (options.config === undefined && found === undefined) {
    throw new InputError(`no convy.yml in ${ctx.cwd} or any folder above it; run \`convy-ci init\` to make a project, or pass --config`)
  }
  const configPath = found ?? resolve(ctx.cwd, options.config ?? 'convy.yml')
  if (found !== undefined && dirname(found) !== resolve(ctx.cwd)) ctx.stderr?.write(`using ${relative(ctx.cwd, found)} (the nearest convy.yml above this folder)
`)
  const config = await loadProjectConfig(configPath)
  const dotEnv = await readDotEnv(join(config.projectDir, '.env'))
  const env = { ...dotEnv, ...ctx.env, [FROM_DOTENV]: new Set(Object.keys(dotEnv).filter((name) => ctx.env[name] === undefined)) }
  return {
    config,
    projectDir: config.projectDir,
    scenariosDir: join(config.projectDir, 'scenarios'),
    resultsDir: options.results ? resolve(ctx.cwd, options.results) : join(config.projectDir, 'results'),
    env,
  }
}

/**
 * Every value the project treats as secret (records/config/load-config.ts), from the environment
 * and the project's .env, with convy.yml's `redact:` patterns; none when there is no convy.yml to read
 * (or it cannot be read), which the command itself reports.
 */
export async function secretsOfProject(ctx: Pick<PipelineContext, 'cwd' | 'env'>, options: { config?: string | undefined }): Promise<ProjectSecrets> {
  let project: Project
  try {
    project = await openProject(ctx, options)
  } catch {
    return { values: [] }
  }
  return { values: projectSecrets(project.config, project.env), ...(project.config.redact ? { redact: project.config.redact } : {}) }
}

/** What the project masks: the values it reads as secrets, and convy.yml's `redact:` patterns. */
export interface ProjectSecrets {
  values: string[]
  redact?: Redaction
}

/** The project's .env; the real environment wins over it, as with most tools that read one. */
async function readDotEnv(path: string): Promise<Record<string, string>> {
  let text: string
  try {
    text = await readFile(path, 'utf8')
  } catch {
    return {}
  }
  try {
    return parseEnv(text) as Record<string, string>
  } catch (error) {
    throw new InputError(`${path}: cannot be read as a .env file (${(error as Error).message})`)
  }
}

/** Where the results folder is when no convy.yml is needed (report, compare). */
export function resultsDirOf(ctx: PipelineContext, options: { results?: string | undefined; config?: string | undefined }): string {
  if (options.results) return resolve(ctx.cwd, options.results)
  if (options.config) return join(resolve(ctx.cwd, options.config), '..', 'results')
  return resolve(ctx.cwd, 'results')
}
