import type { Agent } from '../agents/agent.ts'
import type { RunManifest } from '../../records/journal/records.ts'
import { createAgent } from '../agents/create-agent.ts'
import { DEFAULT_MAX_REPLY_KB, limitReplies, maxBodyBytes } from '../agents/reply-limit.ts'
import type { Environment } from '../../records/config/interpolate.ts'
import { projectSecrets, resolveAgent, resolveModels, type ProjectConfig, type ResolvedModels } from '../../records/config/load-config.ts'
import type { AgentConfig } from '../../records/config/config.ts'
import { canListen, type ListenOptions } from '../tools/listen.ts'
import { FileError } from '../../base/shared/errors.ts'
import { createFetch, type HttpFetch } from '../../base/http/fetch.ts'
import { proxyInUse, proxyRulesFrom } from '../../base/http/proxy.ts'
import { checkGateway } from '../../adapters/model-client/check-gateway.ts'
import { createMask } from '../../base/shared/secrets.ts'
import { createFileCache, type CacheMode } from '../../adapters/model-client/model-cache.ts'
import { join } from 'node:path'
import type { Judge, SimulatedUser, UserReviewer } from '../conversation/roles.ts'
import { needsJudgeModel, needsUserModel, type Scenario } from '../../records/scenario/scenario.ts'
import { fingerprint } from '../../base/shared/fingerprint.ts'
import { agentWorldOf, type AgentWorld } from '../world/attempt-world.ts'
import { ChatClient, type ChatClientOptions } from '../../adapters/model-client/openai-chat-client.ts'
import { OpenAIJudge } from '../judge/llm-judge.ts'
import { OpenAISimulatedUser } from '../simulated-user/simulated-user.ts'
import { OpenAIUserReviewer } from '../review/user-reviewer.ts'
import { DEFAULT_MAX_RETRY_PAUSE_MS, DEFAULT_RETRY_BASE_MS } from '../../adapters/model-client/retry.ts'

/**
 * Turns configuration into live objects: the agent (a module is compiled and loaded here) and
 * convy-ci's model clients. Everything that can be wrong with the input fails here, before any
 * attempt is played.
 */
export interface PreparedAgent {
  name: string
  kind: string
  version: string | null
  /** Of the configuration as written and, for a module, of its code. */
  fingerprint: string
  agent: Agent
  /** Dollars per million of the agent's tokens, [input, output], from convy.yml. */
  price: [number, number] | null
  secrets: string[]
  /** Its world from convy.yml: context, set-up, tear-down and limits the scenarios start from (play/world/). */
  world: AgentWorld
  /** Its request templates as resolved (url, headers, body), for the `{context.*}` they name. */
  templates: Record<string, unknown>
  /** The HTTP client its requests go through: set-up and tear-down requests take it too. */
  fetch: HttpFetch
  /** Where a scenario's tools listen for this agent, and the host its `tools_url` names (convy.yml's `tools_host`); absent: 127.0.0.1. */
  toolsListen?: ListenOptions
}

/** The agent as run.json records it: what answered, so a resume or a comparison can tell a change. */
export function agentRecord(agent: PreparedAgent): RunManifest['agent'] {
  return { name: agent.name, kind: agent.kind, version: agent.version, fingerprint: agent.fingerprint, price: agent.price }
}

export async function prepareAgent(config: ProjectConfig, name: string, env: Environment, options: { canStripTypes: boolean }): Promise<PreparedAgent> {
  const resolved = resolveAgent(config, name, env)
  const maxReplyBytes = ('max_reply_kb' in resolved.config && resolved.config.max_reply_kb !== undefined ? resolved.config.max_reply_kb : DEFAULT_MAX_REPLY_KB) * 1024
  const proxyRules = proxyRulesFrom(env)
  const fetch = createFetch({ maxBodyBytes: maxBodyBytes(maxReplyBytes), proxyRules })
  const created = await createAgent(name, resolved.config, {
    projectDir: config.projectDir,
    canStripTypes: options.canStripTypes,
    fetch,
    maxBodyBytes: maxBodyBytes(maxReplyBytes),
    proxyRules,
  })
  const tools = toolsListenOf(resolved.config)
  if (tools.toolsListen?.bind !== undefined) {
    const refused = await canListen(tools.toolsListen.bind)
    if (refused !== null) {
      throw new FileError(config.file.name, config.file.lineOf(['agents', name, 'tools_host']), `agents.${name}.tools_host: the scenario's tools cannot listen on ${tools.toolsListen.bind} (${refused}); write an address of this machine (0.0.0.0 for all, the Docker bridge's 172.17.0.1 for containers)`)
    }
  }
  return {
    name,
    kind: created.kind,
    version: created.version,
    fingerprint: created.kind === 'module' ? fingerprint({ config: resolved.configFingerprint, module: created.fingerprint }) : resolved.configFingerprint,
    agent: limitReplies(created.agent, maxReplyBytes),
    price: 'price' in resolved.config && resolved.config.price ? resolved.config.price : null,
    secrets: resolved.secrets,
    world: resolved.config.protocol === 'echo' ? {} : agentWorldOf(resolved.config),
    templates: Object.fromEntries(Object.entries(resolved.config).filter(([key]) => key === 'url' || key === 'headers' || key === 'body')),
    fetch,
    ...tools,
  }
}

function toolsListenOf(config: AgentConfig): { toolsListen?: ListenOptions } {
  const written = 'tools_host' in config ? config.tools_host : undefined
  if (written === undefined) return {}
  return { toolsListen: typeof written === 'string' ? { bind: written } : { bind: written.listen, ...(written.advertise === undefined ? {} : { advertise: written.advertise }) } }
}

export interface PreparedModels {
  resolved: ResolvedModels
  user: SimulatedUser | null
  judge: Judge | null
  /** Reviews failed attempts of the simulated user; null when the review is off or has no model. */
  reviewer: UserReviewer | null
  /** The HTTP client the models (and their gateway check) go through. */
  fetch: HttpFetch
  /** The proxy their requests go through, as the gateway check names it when it cannot be reached. */
  proxy: ReturnType<typeof proxyInUse>
}

export interface ModelOptions {
  /** How the run uses the model cache under `<project>/.convy/cache`; default off. */
  cache?: CacheMode
  /** Review failed attempts of the simulated user (`run --review`); default: convy.yml's `models.review`. */
  review?: boolean
  /**
   * The HTTP client to call the models with; default a new one. Given the early check's, the first
   * model request takes the connection the check opened (no second connect or TLS handshake before
   * the first attempt), and later connections resume its TLS session.
   */
  fetch?: HttpFetch
}

export function prepareModels(config: ProjectConfig, env: Environment, scenarios: readonly Scenario[], smoke: boolean, options: ModelOptions = {}): PreparedModels {
  const userScenarios = scenarios.filter((s) => needsUserModel(s, smoke))
  // A scenario's `simulated_user.model` replaces convy.yml's: models.user is needed only by scenarios that name none.
  const ownUserModel = userScenarios.find((s) => s.simulatedUser?.model !== undefined)?.simulatedUser?.model
  const need = { user: userScenarios.length > 0, judge: scenarios.some((s) => needsJudgeModel(s, smoke)) }
  const resolved = resolveModels(config, env, { ...need, user: userScenarios.some((s) => s.simulatedUser?.model === undefined), calls: need.user || need.judge })
  const { fetch, proxy } = modelsClient(resolved, env, options.fetch)
  // The reviewer is the judge's model: a strong model, already configured and priced.
  const review = need.user && (options.review ?? resolved.config.review) && resolved.config.judge !== undefined
  const { user, judge, reviewer } = createModels({
    baseURL: resolved.baseURL,
    apiKey: resolved.apiKey,
    userModel: need.user ? (resolved.config.user ?? ownUserModel) : undefined,
    judgeModel: need.judge ? resolved.config.judge : undefined,
    reviewModel: review ? resolved.config.judge : undefined,
    temperature: resolved.config.temperature,
    timeoutSeconds: resolved.config.timeout,
    maxTries: resolved.config.max_tries,
    fetch,
    organization: env.OPENAI_ORG_ID || undefined,
    project: env.OPENAI_PROJECT_ID || undefined,
    cache: options.cache && options.cache !== 'off' ? createFileCache(join(config.projectDir, '.convy', 'cache'), options.cache, createMask([...resolved.secrets, ...projectSecrets(config, env)], config.redact)) : undefined,
    limits: Object.fromEntries(
      Object.entries(resolved.config.rate_limits).map(([model, l]) => [model, { requestsPerMinute: l.requests_per_minute, tokensPerMinute: l.tokens_per_minute, concurrency: l.concurrency }]),
    ),
  })
  return { resolved, user, judge, reviewer, fetch, proxy }
}

/**
 * Checks, once before the run, that the gateway of convy-ci's models answers and takes the key. A run
 * that may answer from the model cache skips it: its calls may never reach the gateway. A check begun
 * early (`startModelCheck`) for the same gateway and key is awaited instead of asking again.
 */
export async function checkModels(models: PreparedModels, cache: CacheMode = 'off', early: EarlyModelCheck | null = null): Promise<void> {
  if ((models.user === null && models.judge === null) || cache === 'read' || cache === 'readwrite') return
  const { baseURL, apiKey, secrets, baseURLSource } = models.resolved
  if (early && early.baseURL === baseURL && early.apiKey === apiKey) return early.done
  await checkGateway({ baseURL, apiKey, fetch: models.fetch, mask: createMask(secrets), source: baseURLSource, proxy: models.proxy })
}

/**
 * The HTTP client of convy-ci's models (the environment's proxies, or the `proxy:` of `models`), or
 * the one `given`; and the proxy it reaches them through, if any, for errors to name.
 */
function modelsClient(resolved: ResolvedModels, env: Environment, given?: HttpFetch): Pick<PreparedModels, 'fetch' | 'proxy'> {
  const fetch = given ?? createFetch({ proxyRules: proxyRulesFrom(env), proxy: resolved.config.proxy })
  let proxy: PreparedModels['proxy'] = null
  try {
    proxy = proxyInUse(new URL(resolved.baseURL ?? 'https://api.openai.com/v1'), resolved.config.proxy, env)
  } catch {
    // A proxy address that cannot be read fails the client itself, with its own message.
  }
  return { fetch, proxy }
}

/** A gateway check under way, for `checkModels` to await. */
export interface EarlyModelCheck {
  baseURL: string | undefined
  apiKey: string | undefined
  /** The client the check went through, holding its connection to the gateway for the run's calls. */
  fetch: HttpFetch
  done: Promise<void>
  /** Drops the check if it is still waiting, so a run that failed meanwhile exits at once. */
  cancel(): void
}

/**
 * Begins the gateway check as soon as convy.yml is read, so it runs while the scenario files load
 * rather than after them: one round trip to the gateway less before the first attempt (bench/runner.ts).
 * Which models the run needs is known only once the scenarios are read, so this is a guess: it starts
 * only when convy.yml names a model and the run may call one (not --smoke, not from the cache), and
 * anything wrong with the models section is left for `prepareModels` to report. Until awaited, its
 * failure is held, not thrown: a run that turns out to need no model never sees it.
 */
export function startModelCheck(config: ProjectConfig, env: Environment, options: { smoke: boolean; cache: CacheMode }): EarlyModelCheck | null {
  if (options.smoke || options.cache === 'read' || options.cache === 'readwrite') return null
  const named = { user: config.models.user !== undefined, judge: config.models.judge !== undefined }
  if (!named.user && !named.judge) return null
  let resolved: ResolvedModels
  try {
    resolved = resolveModels(config, env, named)
  } catch {
    return null
  }
  const stop = new AbortController()
  let client: Pick<PreparedModels, 'fetch' | 'proxy'>
  try {
    client = modelsClient(resolved, env)
  } catch {
    return null
  }
  const { fetch, proxy } = client
  const done = checkGateway({ baseURL: resolved.baseURL, apiKey: resolved.apiKey, fetch, mask: createMask(resolved.secrets), signal: stop.signal, source: resolved.baseURLSource, proxy })
  done.catch(() => undefined)
  return { baseURL: resolved.baseURL, apiKey: resolved.apiKey, fetch, done, cancel: () => stop.abort() }
}

export interface ModelsOptions {
  /** The OpenAI-compatible endpoint, e.g. `http://localhost:4000/v1`. Default: OpenAI. */
  baseURL?: string
  apiKey?: string
  /** The simulated user's model; without it there is no simulated user. */
  userModel?: string
  /** The judge's model; without it there is no judge. */
  judgeModel?: string
  /** The model that reviews failed attempts for the simulated user's mistakes; without it, no review. */
  reviewModel?: string
  /** The simulated user's sampling temperature; default: the server's. The judge always uses 0. */
  temperature?: number
  /** Each try of a call is cut off after this long. */
  timeoutSeconds: number
  /** Tries per call, the first included, for 429, 5xx, timeouts and connection errors. */
  maxTries: number
  /** First pause between tries, doubling after each; default 1 s. */
  retryBaseMs?: number
  /** Longest pause, also for a server's Retry-After; default 60 s. */
  maxRetryPauseMs?: number
  /** A fetch to use instead of the global one (proxies, custom TLS). */
  fetch?: ChatClientOptions['fetch']
  organization?: string
  project?: string
  cache?: ChatClientOptions['cache']
  limits?: ChatClientOptions['limits']
  /** What pauses wait on; default the real clock. */
  clock?: ChatClientOptions['clock']
}

export interface Models {
  user: SimulatedUser | null
  judge: Judge | null
  reviewer: UserReviewer | null
}

/**
 * convy-ci's own models over one OpenAI-compatible endpoint. They share one client, so what the
 * server turned out not to support is learnt once for the whole run.
 */
export function createModels(options: ModelsOptions): Models {
  const client = new ChatClient({
    baseURL: options.baseURL,
    apiKey: options.apiKey,
    fetch: options.fetch,
    organization: options.organization,
    project: options.project,
    cache: options.cache,
    limits: options.limits,
    clock: options.clock,
    timeoutSeconds: options.timeoutSeconds,
    retry: {
      maxTries: Math.max(1, options.maxTries),
      baseMs: options.retryBaseMs ?? DEFAULT_RETRY_BASE_MS,
      maxPauseMs: options.maxRetryPauseMs ?? DEFAULT_MAX_RETRY_PAUSE_MS,
    },
  })
  return {
    user: options.userModel === undefined ? null : new OpenAISimulatedUser(client, options.userModel, options.temperature),
    judge: options.judgeModel === undefined ? null : new OpenAIJudge(client, options.judgeModel),
    reviewer: options.reviewModel === undefined ? null : new OpenAIUserReviewer(client, options.reviewModel),
  }
}
