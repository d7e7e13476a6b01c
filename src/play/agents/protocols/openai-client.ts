import OpenAI, { APIConnectionError, APIError } from 'openai'
import type { Fetch } from '../../../base/http/fetch.ts'
import { excerpt, networkCause } from '../fetch-json.ts'

/**
 * The official `openai` client, set up for an agent under test rather than for OpenAI: it is the
 * reference for the wire format and its SSE parsing. Its conveniences are switched off where they
 * would be wrong here: no retries and no timeout of its own (the runner owns both through the
 * signal), and nothing read from the environment — left to itself the client would send the user's
 * OPENAI_API_KEY, organization and project to the agent under test.
 */
export interface OpenAIClientConfig {
  url: string
  api_key?: string
  headers: Readonly<Record<string, string>>
}

// The longest delay a Node timer accepts; the real limit is the runner's signal.
const NO_CLIENT_TIMEOUT_MS = 2 ** 31 - 1

export function openaiClient(config: OpenAIClientConfig, fetch?: Fetch): OpenAI {
  return new OpenAI({
    baseURL: config.url,
    // openai@6 refuses to start without a key; with none configured no Authorization header is sent.
    apiKey: config.api_key ?? 'unused',
    organization: null,
    project: null,
    webhookSecret: null,
    defaultHeaders: { ...(config.api_key === undefined ? { Authorization: null } : {}), ...config.headers },
    maxRetries: 0,
    timeout: NO_CLIENT_TIMEOUT_MS,
    logLevel: 'off',
    fetch,
  })
}

/** `POST http://…/chat/completions`, for messages. */
export function endpointOf(config: OpenAIClientConfig, route: string): string {
  return `POST ${config.url.replace(/\/+$/, '')}/${route}`
}

/** The client's errors in the words of a failed turn; an abort becomes the signal's own reason. */
export function explain(error: unknown, endpoint: string, signal: AbortSignal): unknown {
  if (signal.aborted) return signal.reason
  if (error instanceof APIConnectionError) {
    return new Error(`could not reach ${endpoint}: ${networkCause(error)}`, { cause: error })
  }
  if (error instanceof APIError && error.status !== undefined) {
    return new Error(`${endpoint} answered HTTP ${error.status}: ${excerpt(error.message.replace(/^\d+\s*/, ''))}`, { cause: error })
  }
  // An error event inside a 200 stream: the client throws it without a status.
  if (error instanceof APIError) return new Error(`${endpoint} sent an error in its stream: ${excerpt(error.message)}`, { cause: error })
  // The body broke off mid-stream: the client passes the network error on as it came.
  if (hasErrorCode(error)) return new Error(`the answer from ${endpoint} broke off: ${networkCause(error)}`, { cause: error })
  return error
}

function hasErrorCode(error: unknown): boolean {
  for (let depth = 0; depth < 5 && error instanceof Error; depth++, error = error.cause) {
    if (typeof (error as NodeJS.ErrnoException).code === 'string' || error.message === 'terminated') return true
  }
  return false
}
