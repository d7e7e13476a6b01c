import type { Agent } from '../agents/agent.ts'
import { createAgent } from '../agents/create-agent.ts'
import { DEFAULT_MAX_REPLY_KB, limitReplies, maxBodyBytes } from '../agents/reply-limit.ts'
import type { Environment } from '../config/interpolate.ts'
import { resolveAgent, resolveModels, type ProjectConfig, type ResolvedModels } from '../config/load-config.ts'
import { createModels } from './create-models.ts'
import { createFetch } from '../http/fetch.ts'
import { checkGateway } from '../model-client/check-gateway.ts'
import { createMask } from '../shared/secrets.ts'
import { createFileCache, type CacheMode } from '../model-client/model-cache.ts'
import { join } from 'node:path'
import type { Judge, SimulatedUser, UserReviewer } from '../conversation/roles.ts'
import { needsJudgeModel, needsUserModel, type Scenario } from '../scenario/scenario.ts'
import { fingerprint } from '../shared/fingerprint.ts'

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
}

export async function prepareAgent(config: ProjectConfig, name: string, env: Environment, options: { canStripTypes: boolean }): Promise<PreparedAgent> {
  const resolved = resolveAgent(config, name, env)
  const maxReplyBytes = ('max_reply_kb' in resolved.config && resolved.config.max_reply_kb !== undefined ? resolved.config.max_reply_kb : DEFAULT_MAX_REPLY_KB) * 1024
  const created = await createAgent(name, resolved.config, {
    projectDir: config.projectDir,
    canStripTypes: options.canStripTypes,
    fetch: createFetch({ maxBodyBytes: maxBodyBytes(maxReplyBytes) }),
    maxBodyBytes: maxBodyBytes(maxReplyBytes),
  })
  return {
    name,
    kind: created.kind,
    version: created.version,
    fingerprint: created.kind === 'module' ? fingerprint({ config: resolved.configFingerprint, module: created.fingerprint }) : resolved.configFingerprint,
    agent: limitReplies(created.agent, maxReplyBytes),
    price: 'price' in resolved.config && resolved.config.price ? resolved.config.price : null,
    secrets: resolved.secrets,
  }
}

export interface PreparedModels {
  resolved: ResolvedModels
  user: SimulatedUser | null
  judge: Judge | null
  /** Reviews failed attempts of the simulated user; null when the review is off or has no model. */
  reviewer: UserReviewer | null
}

export interface ModelOptions {
  /** How the run uses the model cache under `<project>/.convy/cache`; default off. */
  cache?: CacheMode
  /** Review failed attempts of the simulated user (`run --review`); default: convy.yml's `models.review`. */
  review?: boolean
}

export function prepareModels(config: ProjectConfig, env: Environment, scenarios: readonly Scenario[], smoke: boolean, options: ModelOptions = {}): PreparedModels {
  const need = { user: scenarios.some((s) => needsUserModel(s, smoke)), judge: scenarios.some((s) => needsJudgeModel(s, smoke)) }
  const resolved = resolveModels(config, env, need)
  // The reviewer is the judge's model: a strong model, already configured and priced.
  const review = need.user && (options.review ?? resolved.config.review) && resolved.config.judge !== undefined
  const { user, judge, reviewer } = createModels({
    baseURL: resolved.baseURL,
    apiKey: resolved.apiKey,
    userModel: need.user ? resolved.config.user : undefined,
    judgeModel: need.judge ? resolved.config.judge : undefined,
    reviewModel: review ? resolved.config.judge : undefined,
    temperature: resolved.config.temperature,
    timeoutSeconds: resolved.config.timeout,
    maxTries: resolved.config.max_tries,
    fetch: createFetch(),
    cache: options.cache && options.cache !== 'off' ? createFileCache(join(config.projectDir, '.convy', 'cache'), options.cache) : undefined,
    limits: Object.fromEntries(
      Object.entries(resolved.config.rate_limits).map(([model, l]) => [model, { requestsPerMinute: l.requests_per_minute, tokensPerMinute: l.tokens_per_minute, concurrency: l.concurrency }]),
    ),
  })
  return { resolved, user, judge, reviewer }
}

/**
 * Checks, once before the run, that the gateway of convy-ci's models answers and takes the key. A run
 * that may answer from the model cache skips it: its calls may never reach the gateway.
 */
export async function checkModels(models: PreparedModels, cache: CacheMode = 'off'): Promise<void> {
  if ((models.user === null && models.judge === null) || cache === 'read' || cache === 'readwrite') return
  await checkGateway({ baseURL: models.resolved.baseURL, apiKey: models.resolved.apiKey, fetch: createFetch(), mask: createMask(models.resolved.secrets) })
}
