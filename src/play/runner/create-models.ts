import type { Judge, SimulatedUser, UserReviewer } from '../conversation/roles.ts'
import { ChatClient, type ChatClientOptions } from '../../adapters/model-client/openai-chat-client.ts'
import { OpenAIJudge } from '../judge/llm-judge.ts'
import { OpenAISimulatedUser } from '../simulated-user/simulated-user.ts'
import { OpenAIUserReviewer } from '../review/user-reviewer.ts'
import { DEFAULT_MAX_RETRY_PAUSE_MS, DEFAULT_RETRY_BASE_MS } from '../../adapters/model-client/retry.ts'

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
