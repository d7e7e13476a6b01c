import { access, readFile } from 'node:fs/promises'
import { basename, dirname, join, resolve } from 'node:path'
import * as z from '../../base/shared/zod.ts'
import { allProblems, FileError, InputError } from '../../base/shared/errors.ts'
import { fingerprint } from '../../base/shared/fingerprint.ts'
import { createMask, type Redaction } from '../../base/shared/secrets.ts'
import { didYouMean } from '../../base/input/did-you-mean.ts'
import { issuesToErrors, parseYamlFile, type YamlFile } from '../../base/input/yaml-file.ts'
import { knownKeysOf } from '../../base/input/schema-keys.ts'
import { AgentConfigSchema, ModelsConfigSchema, type AgentConfig, type ModelsConfig } from './config.ts'
import { describeVariable, interpolate, type Environment } from './interpolate.ts'
import { proxySecrets } from '../../base/http/proxy.ts'
import { parseRedact } from './redact.ts'

/** A configuration is a page or two; parsing a huge file would take gigabytes. */
const MAX_CONFIG_CHARS = 1024 * 1024

export const BUILT_IN_AGENTS = ['echo'] as const

const ConfigFileSchema = z.strictObject({
  models: z.optional(z.record(z.string(), z.unknown())),
  agents: z.optional(z.record(z.string().check(z.regex(/^[A-Za-z0-9][A-Za-z0-9_.-]*$/, 'agent names use letters, digits, ".", "_" and "-"')), z.unknown())),
  /** The judge's calibration and its gate (judgeConfig below). */
  judge: z.optional(z.record(z.string(), z.unknown())),
  /** Named tool sets a scenario includes by name (`tools: orders`); checked in records/scenario/load-tools.ts. */
  tools: z.optional(z.record(z.string(), z.unknown())),
  /** Patterns masked in every record and output besides the secrets; compiled in redact.ts. */
  redact: z.optional(z.unknown()),
})

/** convy.yml, parsed and checked in shape; sections are resolved (with ${VAR}s) only when needed. */
export interface ProjectConfig {
  file: YamlFile
  projectDir: string
  models: Record<string, unknown>
  agents: Record<string, unknown>
  /** convy.yml's `judge:` section as written; read by judgeConfig. */
  judge?: Record<string, unknown>
  /** convy.yml's `tools:` section as written: named tool sets for the scenarios. */
  tools?: Record<string, unknown>
  /** convy.yml's `redact:` patterns, compiled (redact.ts): every mask made for this project applies them. */
  redact?: Redaction
}

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

export async function loadProjectConfig(path: string): Promise<ProjectConfig> {
  let text: string
  try {
    text = await readFile(path, 'utf8')
  } catch {
    throw new InputError(`${path}: not found; run \`convy-ci init\` to make a project, or pass --config`)
  }
  if (text.length > MAX_CONFIG_CHARS) throw new FileError(basename(path), 1, `${(text.length / 2 ** 20).toFixed(1)} MiB; convy.yml may be at most ${MAX_CONFIG_CHARS / 2 ** 20} MiB`)
  const file = parseYamlFile(basename(path), text)
  const data = file.data ?? {}
  const parsed = ConfigFileSchema.safeParse(data, z.PARSE_FEW)
  if (!parsed.success) {
    throw allProblems(issuesToErrors(file, parsed.error.issues, [], knownKeysOf(ConfigFileSchema, data)))
  }
  const redact = await parseRedact(file, parsed.data.redact)
  return {
    file,
    projectDir: dirname(resolve(path)),
    models: parsed.data.models ?? {},
    agents: parsed.data.agents ?? {},
    ...(parsed.data.judge ? { judge: parsed.data.judge } : {}),
    ...(parsed.data.tools ? { tools: parsed.data.tools } : {}),
    ...(redact ? { redact } : {}),
  }
}

export function agentNames(config: ProjectConfig): string[] {
  return [...BUILT_IN_AGENTS, ...Object.keys(config.agents)]
}

/**
 * Every value the project treats as secret, known before anything runs: what convy.yml's agents and
 * models read from the environment (as a run resolves them: an address gives only its secret-bearing
 * parts), the models' default key (OPENAI_API_KEY) and the proxies' passwords. The action registers
 * them with the runner and masks its own outputs with them, whatever mode it runs in and whichever
 * agents the run selects.
 *
 * Lenient where a run is strict: a variable that is not set is skipped, not an error, so a broken
 * convy.yml is still reported by the run itself, with its line.
 */
export function projectSecrets(config: ProjectConfig, env: Environment): string[] {
  const secrets: string[] = []
  const walk = (node: unknown, path: readonly PropertyKey[]): void => {
    if (typeof node === 'string') {
      if (!node.includes('${')) return
      try {
        secrets.push(...interpolate(config.file, path, node, env).readValues)
      } catch {
        // Unset: nothing was read, nothing to hide.
      }
    } else if (Array.isArray(node)) node.forEach((item, i) => walk(item, [...path, i]))
    else if (node && typeof node === 'object') for (const [key, value] of Object.entries(node)) walk(value, [...path, key])
  }
  walk(config.models, ['models'])
  walk(config.agents, ['agents'])
  if (env.OPENAI_API_KEY) secrets.push(env.OPENAI_API_KEY)
  const proxies = [config.models.proxy, ...Object.values(config.agents).map((agent) => (agent && typeof agent === 'object' ? (agent as { proxy?: unknown }).proxy : undefined))]
  for (const proxy of [undefined, ...proxies]) secrets.push(...proxySecrets(env, typeof proxy === 'string' && !proxy.includes('${') ? proxy : undefined))
  return [...new Set(secrets)]
}

export interface ResolvedAgent {
  name: string
  config: AgentConfig
  /** sha256 of the configuration as written: ${VAR} values are not part of it, so rotating a token does not block a resume. */
  configFingerprint: string
  /** The values it read from the environment, and the passwords of the proxies its requests may take. */
  secrets: string[]
}

export function resolveAgent(config: ProjectConfig, name: string, env: Environment): ResolvedAgent {
  if ((BUILT_IN_AGENTS as readonly string[]).includes(name) && !(name in config.agents)) {
    return { name, config: { protocol: 'echo' }, configFingerprint: fingerprint({ protocol: 'echo' }), secrets: proxySecrets(env, undefined) }
  }
  const raw = config.agents[name]
  if (raw === undefined) {
    const hint = didYouMean(name, agentNames(config))
    throw new InputError(`${config.file.name}: no agent "${name}"${hint ? ` — did you mean "${hint}"?` : ''} (agents: ${agentNames(config).join(', ')})`)
  }
  const path = ['agents', name]
  // `agents/bot.ts` is a module, and so is a map with `module:` and no protocol (a module with a set-up, a price); any other map is JSON.
  const implied = (map: object) => ({ protocol: 'module' in map ? 'module' : 'json', ...map })
  const shaped = typeof raw === 'string' ? { protocol: 'module', module: raw } : raw && typeof raw === 'object' && !('protocol' in raw) ? implied(raw) : raw
  const { value, readValues } = interpolate(config.file, path, shaped, env)
  const parsed = AgentConfigSchema.safeParse(value, z.PARSE_FEW)
  if (!parsed.success) {
    throw allProblems(issuesToErrors(config.file, parsed.error.issues, path, knownKeysOf(AgentConfigSchema, value, path), createMask(readValues)))
  }
  if (parsed.data.protocol === 'module') {
    parsed.data.module = join(config.projectDir, parsed.data.module)
  }
  // A price or a proxy changes what a run costs or how it gets there, not what the agent answers:
  // resuming after editing one is fine.
  // Nor does where the scenario's tools listen: they answer the same.
  const { price: _price, proxy: _proxy, tools_host: _toolsHost, ...behaviour } = shaped as Record<string, unknown>
  const proxy = 'proxy' in parsed.data ? parsed.data.proxy : undefined
  return { name, config: parsed.data, configFingerprint: fingerprint(behaviour), secrets: [...readValues, ...proxySecrets(env, proxy)] }
}


export interface ResolvedModels {
  config: ModelsConfig
  baseURL: string | undefined
  apiKey: string | undefined
  fingerprint: string
  secrets: string[]
  /** Where the gateway's address came from, for a hint: `models.base_url in convy2.yml (CONVY_BASE_URL=…)`. */
  baseURLSource: string
}

/**
 * The models section, with OPENAI_BASE_URL and OPENAI_API_KEY as defaults. `need` says which models
 * the selected scenarios call: only those must be named, and only then must their ${VAR}s be set.
 */
/**
 * `need.user` and `need.judge`: the run needs convy.yml to name that role's model. `need.calls`: it
 * calls a model at all (default: either of them), as when every scenario that has a simulated user
 * names its own model.
 */
export function resolveModels(config: ProjectConfig, env: Environment, need: { user: boolean; judge: boolean; calls?: boolean }): ResolvedModels {
  const path = ['models']
  const anyModel = need.calls ?? (need.user || need.judge)
  // Without a model to call, ${VAR}s in this section are not read (an offline run needs no key).
  const { value, readValues } = anyModel ? interpolate(config.file, path, config.models, env) : { value: withoutVariables(config.models), readValues: [] }
  const parsed = ModelsConfigSchema.safeParse(value, z.PARSE_FEW)
  if (!parsed.success) {
    throw allProblems(issuesToErrors(config.file, parsed.error.issues, path, knownKeysOf(ModelsConfigSchema, value, path), createMask(readValues)))
  }
  const models = parsed.data
  for (const role of ['user', 'judge'] as const) {
    if (need[role] && models[role] === undefined) {
      throw new FileError(config.file.name, config.file.lineOf(path), `models.${role} is not set, and the selected scenarios need ${role === 'user' ? 'the simulated user' : 'the judge'} (name a model, e.g. ${role}: gpt-4.1-mini)`)
    }
  }
  // Left out, the address and the key are read as the openai SDK reads them.
  const baseURL = models.base_url ?? env.OPENAI_BASE_URL
  const apiKey = models.api_key ?? env.OPENAI_API_KEY
  // A local gateway may need no key; OpenAI always does, and would refuse every call after retries.
  if (anyModel && models.api_key === undefined && !apiKey && isOpenAI(baseURL)) {
    throw new FileError(config.file.name, config.file.lineOf(path), `the models need a key: set OPENAI_API_KEY (in the environment or .env), or models.api_key${models.base_url === undefined ? ' (and OPENAI_BASE_URL or models.base_url for a gateway other than OpenAI)' : ''}`)
  }
  // A proxy's password is masked wherever the models' key is.
  const secrets = [...readValues, ...(apiKey ? [apiKey] : []), ...proxySecrets(env, models.proxy)]
  // Prices, limits, the key and the proxy change what a run costs or how it goes, not what it answers.
  const { prices: _prices, api_key: _key, rate_limits: _limits, proxy: _proxy, ...behaviour } = config.models as Record<string, unknown>
  return { config: models, baseURL: baseURL || undefined, apiKey: apiKey || undefined, fingerprint: fingerprint(behaviour), secrets, baseURLSource: baseURLSource(config, env) }
}

function isOpenAI(baseURL: string | undefined): boolean {
  return !baseURL || /^https:\/\/api\.openai\.com(\/|$)/.test(baseURL)
}

function withoutVariables(section: Record<string, unknown>): Record<string, unknown> {
  // Shape-check only what does not depend on the environment.
  return Object.fromEntries(Object.entries(section).filter(([, v]) => !(typeof v === 'string' && v.includes('${'))))
}

function baseURLSource(config: ProjectConfig, env: Environment): string {
  const written = (config.models as { base_url?: unknown }).base_url
  if (typeof written === 'string') {
    const names = [...written.matchAll(/\$\{([A-Za-z_][A-Za-z0-9_]*)/g)].map((m) => m[1]!).filter((name) => env[name])
    const read = names.length > 0 ? ` (${names.map((name) => describeVariable(env, name)).join(', ')})` : ''
    return `models.base_url in ${config.file.name}${read}`
  }
  if (env.OPENAI_BASE_URL) return `${describeVariable(env, 'OPENAI_BASE_URL')}, read as models.base_url is not set in ${config.file.name}`
  return `the default, as neither models.base_url in ${config.file.name} nor OPENAI_BASE_URL is set`
}

/**
 * convy.yml's `judge:` section: where the labels of the judge's decisions are kept (calibration.json
 * is written beside them) and, optionally, the κ below which a comparison rests on an unchecked judge
 * and does not gate:
 *
 *   judge: { min_kappa: 0.7, labels: labels.jsonl }
 */
export const DEFAULT_LABELS_FILE = 'labels.jsonl'

const JudgeSectionSchema = z.strictObject({
  min_kappa: z.optional(z.number().check(z.gte(-1), z.lte(1))),
  labels: z.optional(z.nonEmptyText),
})

export interface JudgeConfig {
  /** null: no gate on the judge's calibration; it is still cited where it applies. */
  minKappa: number | null
  /** The labels file, absolute. */
  labels: string
}

/** The section of a loaded convy.yml; a wrong value is exit 2 at its line. Paths are relative to convy.yml. */
export function judgeConfig(config: ProjectConfig): JudgeConfig {
  const parsed = JudgeSectionSchema.safeParse(config.judge ?? {}, z.PARSE_FEW)
  if (!parsed.success) {
    throw allProblems(issuesToErrors(config.file, parsed.error.issues, ['judge'], knownKeysOf(JudgeSectionSchema, config.judge ?? {}, ['judge'])))
  }
  return { minKappa: parsed.data.min_kappa ?? null, labels: resolve(config.projectDir, parsed.data.labels ?? DEFAULT_LABELS_FILE) }
}
