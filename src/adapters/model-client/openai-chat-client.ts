import type OpenAI from 'openai'
import type { ClientOptions } from 'openai'
import { APIConnectionTimeoutError } from 'openai/error'
import type { ChatCompletionCreateParamsNonStreaming, ChatCompletionMessageParam } from 'openai/resources/chat/completions'
import type { ResponseFormatJSONSchema } from 'openai/resources/shared'
import type { ModelCallContext } from './model-call.ts'
import { classifyError, errorHeaders, isTransient, isUnsupportedParameter, modelError } from './classify-error.ts'
import { abortReason, pauseBeforeRetry, type RetryPolicy } from './retry.ts'
import { cacheKey, noCache, type ModelCache } from './model-cache.ts'
import { RateLimiter, realClock, type Clock, type RateLimits } from './rate-limiter.ts'
import { createMask, type Mask } from '../../base/shared/secrets.ts'
import { withDeadline } from '../../base/shared/deadline.ts'
import type { Fetch, HttpFetch } from '../../base/http/fetch.ts'
import { CONVY_VERSION } from '../../base/shared/version.ts'

/** openai@6 refuses to start without a key, even for a server that needs none: this stands in. */
const NO_KEY = 'no-key'
const OPENAI_BASE_URL = 'https://api.openai.com/v1'

export interface ChatClientOptions {
  /** Default: OpenAI itself. Passed explicitly so the `openai` package never reads the environment. */
  baseURL?: string
  apiKey?: string
  /** Each try is cut off after this long, the answer's body included. */
  timeoutSeconds: number
  retry: RetryPolicy
  /**
   * The HTTP client; default: the built-in fetch. A run passes its own (base/http/fetch.ts), whose
   * dispatcher the `openai` client is given: its proxies and certificates apply to the models too.
   */
  fetch?: Fetch | HttpFetch
  /** OpenAI's organization and project headers (OPENAI_ORG_ID, OPENAI_PROJECT_ID); default none. */
  organization?: string
  project?: string
  /** Answers kept from earlier runs; default none. */
  cache?: ModelCache
  /** Limits by model name, shared by every call this client makes. */
  limits?: Readonly<Record<string, RateLimits>>
  /** What the pauses between tries and the rate limits wait on; default the real clock. Tests give their own to see the pauses. */
  clock?: Clock
}

export interface ChatRequest {
  model: string
  /** Who is asking, for error messages: "judge", "simulated user". */
  purpose: string
  messages: ChatCompletionMessageParam[]
  temperature?: number
  /** The longest answer, in tokens; default the server's. Sent as `max_tokens` (`max_completion_tokens` where that is refused). */
  maxTokens?: number
  /** Structured output wanted; servers that reject it get JSON mode, then plain text. */
  jsonSchema?: ResponseFormatJSONSchema.JSONSchema
}

export interface ChatAnswer {
  content: string | null
  refusal: string | null
  finishReason: string | null
}

/**
 * The single place that talks to an OpenAI-compatible chat completions endpoint for convy-ci's own
 * models, through the `openai` client with its own retries off: every try is counted and reported
 * through `context.record`, the pause before the next one is ours (retry.ts, with the rate limiter
 * and the budget on top), failures are ModelError with the API key masked.
 */
export class ChatClient {
  /** The `openai` client, made at the first call that is not in the cache. */
  readonly #openai: () => Promise<OpenAI>
  readonly #timeoutMs: number
  readonly #retry: RetryPolicy
  readonly #mask: Mask
  readonly #quirks = new ServerQuirks()
  readonly #cache: ModelCache
  readonly #limiters = new Map<string, RateLimiter>()
  readonly #limits: Readonly<Record<string, RateLimits>>
  readonly #clock: Clock

  constructor(options: ChatClientOptions) {
    this.#timeoutMs = options.timeoutSeconds * 1000
    this.#retry = options.retry
    this.#mask = createMask(options.apiKey === undefined ? [] : [options.apiKey])
    this.#cache = options.cache ?? noCache
    this.#limits = options.limits ?? {}
    this.#clock = options.clock ?? realClock
    const http = options.fetch
    const settings: ClientOptions = {
      // Everything given, so the client never reads the environment itself.
      baseURL: options.baseURL || OPENAI_BASE_URL,
      apiKey: options.apiKey || NO_KEY,
      organization: options.organization ?? null,
      project: options.project ?? null,
      maxRetries: 0,
      timeout: this.#timeoutMs,
      defaultHeaders: { 'user-agent': `convy-ci/${CONVY_VERSION}` },
      ...(http && 'dispatcher' in http ? { fetch: http, fetchOptions: { dispatcher: http.dispatcher } as NonNullable<ClientOptions['fetchOptions']> } : http ? { fetch: http } : {}),
    }
    // The SDK (its client and every resource, ~40 ms to load) is loaded at the first model call, not
    // with the run: a run from the cache, a `report` or a dry run never load it (bench/runner.ts).
    let client: Promise<OpenAI> | undefined
    this.#openai = () => (client ??= import('openai').then(({ default: OpenAIClient }) => new OpenAIClient(settings)))
  }

  /** One call: tries until an answer, a failure not worth retrying, or the end of the budget. */
  async complete(request: ChatRequest, context: ModelCallContext): Promise<ChatAnswer> {
    // On the clock the pauses wait on, so a call's seconds include them, as a test's clock can show.
    const started = this.#clock.now()
    const key = this.#cache.mode !== 'off' && context.cacheScope !== undefined ? cacheKey({ model: request.model, request: cachedPart(request), scope: context.cacheScope }) : undefined
    const hit = key === undefined ? undefined : await this.#cache.get(key)
    if (hit) {
      context.record({ tries: 0, inputTokens: 0, outputTokens: 0, seconds: (this.#clock.now() - started) / 1000, cached: true })
      return { content: hit.content, refusal: hit.refusal, finishReason: hit.finishReason }
    }
    const what = `${request.purpose} model "${request.model}"`
    const limiter = this.#limiter(request.model)
    let tries = 0
    let adjustments = 0
    let inputTokens = 0
    let outputTokens = 0
    try {
      for (;;) {
        if (context.signal.aborted) throw abortReason(context.signal)
        let body: unknown
        const release = await limiter.acquire(context.signal)
        tries++
        try {
          body = await this.#try(request, context.signal)
        } catch (error) {
          release()
          if (context.signal.aborted) throw abortReason(context.signal)
          // A server that lacks an optional feature gets the request again without it, at once;
          // this does not use up the retry budget, which is for transient failures.
          if (this.#quirks.adjustAfter(request, error)) {
            adjustments++
            continue
          }
          const failure = classifyError(error)
          if (!isTransient(failure) || tries - adjustments >= this.#retry.maxTries) {
            throw modelError(failure, what, tries, error, this.#mask)
          }
          const pause = pauseBeforeRetry(this.#retry, tries - adjustments, errorHeaders(error))
          // The server is overloaded for everyone: every call to this model waits, not just this one.
          if (failure === 'rate_limited') limiter.pause(pause)
          await this.#clock.sleep(pause, context.signal)
          continue
        }
        release()
        const completion = readCompletion(body)
        if (completion === undefined) {
          throw modelError('bad_answer', what, tries, `the server's answer is not a chat completion: ${preview(body)}`, this.#mask)
        }
        inputTokens = completion.usage?.prompt_tokens ?? 0
        outputTokens = completion.usage?.completion_tokens ?? 0
        limiter.recordTokens(inputTokens + outputTokens)
        const choice = completion.choices[0]!
        const answer = { content: choice.message.content ?? null, refusal: choice.message.refusal ?? null, finishReason: choice.finish_reason ?? null }
        // A cache is an optimisation: failing to write one never fails the call.
        if (key !== undefined) await this.#cache.set(key, { ...answer, inputTokens, outputTokens }).catch(() => undefined)
        return answer
      }
    } finally {
      context.record({ tries, inputTokens, outputTokens, seconds: (this.#clock.now() - started) / 1000 })
    }
  }

  #limiter(model: string): RateLimiter {
    let limiter = this.#limiters.get(model)
    if (!limiter) {
      limiter = new RateLimiter(this.#limits[model] ?? {}, this.#clock)
      this.#limiters.set(model, limiter)
    }
    return limiter
  }

  /** One HTTP request, cut off after the timeout; resolves to the parsed body, whatever its shape. */
  async #try(request: ChatRequest, signal: AbortSignal): Promise<unknown> {
    const body: ChatCompletionCreateParamsNonStreaming = { model: request.model, messages: request.messages, ...this.#quirks.optionalParameters(request) }
    // The SDK's own timeout ends when the headers come; this one covers the body too. The SDK listens
    // on this request's own signal, not on the run's one that every call in flight shares.
    const deadline = withDeadline(signal, this.#timeoutMs, () => new DOMException('The operation was aborted due to timeout', 'TimeoutError'))
    try {
      // The answer is checked by readCompletion: a compatible server may send anything.
      const openai = await this.#openai()
      return (await openai.chat.completions.create(body, { signal: deadline.signal })) as unknown
    } catch (error) {
      if (deadline.expired && !signal.aborted) throw new APIConnectionTimeoutError({ message: `no complete answer within ${this.#timeoutMs / 1000} s` })
      throw error
    } finally {
      deadline.end()
    }
  }
}

/** What decides an answer, as convy-ci asks it (server fallbacks aside). */
function cachedPart(request: ChatRequest): unknown {
  // maxTokens only when set: the keys of calls without it stay what they were.
  return { messages: request.messages, temperature: request.temperature ?? null, jsonSchema: request.jsonSchema ?? null, ...(request.maxTokens === undefined ? {} : { maxTokens: request.maxTokens }) }
}

function preview(body: unknown): string {
  const text = typeof body === 'string' ? body : JSON.stringify(body) ?? String(body)
  return text.length > 200 ? `${text.slice(0, 200)}…` : text
}

/**
 * The part of a chat completion convy-ci reads; the rest may be anything a compatible server sends.
 * Checked by hand rather than with a zod schema because it runs on every model call: zod's first
 * parse compiles the schema and later ones cost tens of microseconds, a visible share of the runner's
 * CPU at a thousand calls a second (bench/runner.ts). test/models/completion.test.ts holds it to the
 * shape a schema would accept.
 */
export interface Completion {
  choices: { message: { content?: string | null; refusal?: string | null }; finish_reason?: string | null }[]
  usage?: { prompt_tokens?: number | null; completion_tokens?: number | null } | null
}

/** The completion, or undefined when the body does not have that shape. */
export function readCompletion(body: unknown): Completion | undefined {
  if (!isRecord(body)) return undefined
  const { choices, usage } = body
  if (!Array.isArray(choices) || choices.length === 0 || !choices.every(isChoice)) return undefined
  if (usage !== undefined && usage !== null && !(isRecord(usage) && isNumberOrNothing(usage['prompt_tokens']) && isNumberOrNothing(usage['completion_tokens']))) {
    return undefined
  }
  return body as unknown as Completion
}

function isChoice(choice: unknown): boolean {
  if (!isRecord(choice) || !isStringOrNothing(choice['finish_reason'])) return false
  const message = choice['message']
  return isRecord(message) && isStringOrNothing(message['content']) && isStringOrNothing(message['refusal'])
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function isStringOrNothing(value: unknown): boolean {
  return value === undefined || value === null || typeof value === 'string'
}

function isNumberOrNothing(value: unknown): boolean {
  return value === undefined || value === null || (typeof value === 'number' && Number.isFinite(value))
}

/** How strictly the answer's format is asked for: a JSON schema, JSON mode, or only the prompt. */
type ResponseFormatLevel = 'json_schema' | 'json_object' | 'none'

interface QuirkRequest {
  model: string
  temperature?: number
  maxTokens?: number
  jsonSchema?: ResponseFormatJSONSchema.JSONSchema
}

interface ModelQuirks {
  responseFormat: ResponseFormatLevel
  temperature: boolean
  /** OpenAI's reasoning models refuse `max_tokens` and take `max_completion_tokens`; most other servers know only the first. */
  maxTokens: 'max_tokens' | 'max_completion_tokens'
}

/** Words in a 400 that point at the response format rather than at the rest of the request. */
const RESPONSE_FORMAT_WORDS = ['response_format', 'response format', 'json_schema', 'json schema', 'structured output', 'json_object', 'json mode']

/**
 * What each model behind this endpoint turned out not to support. OpenAI-compatible servers differ:
 * some reject `json_schema` (then JSON mode serves), a few reject any `response_format`, and
 * reasoning models reject `temperature` and `max_tokens` (they take `max_completion_tokens`). A rejection is learnt once per model and kept for every later
 * call through the same client, so a run pays for it once.
 */
export class ServerQuirks {
  readonly #byModel = new Map<string, ModelQuirks>()

  optionalParameters(request: QuirkRequest): Pick<ChatCompletionCreateParamsNonStreaming, 'temperature' | 'response_format' | 'max_tokens' | 'max_completion_tokens'> {
    const quirks = this.#quirks(request.model)
    const parameters: Pick<ChatCompletionCreateParamsNonStreaming, 'temperature' | 'response_format' | 'max_tokens' | 'max_completion_tokens'> = {}
    if (request.temperature !== undefined && quirks.temperature) parameters.temperature = request.temperature
    if (request.maxTokens !== undefined) parameters[quirks.maxTokens] = request.maxTokens
    if (request.jsonSchema !== undefined) {
      if (quirks.responseFormat === 'json_schema') parameters.response_format = { type: 'json_schema', json_schema: request.jsonSchema }
      if (quirks.responseFormat === 'json_object') parameters.response_format = { type: 'json_object' }
    }
    return parameters
  }

  /** After a failed try: true when the failure is a rejected optional feature, now dropped for good. */
  adjustAfter(request: QuirkRequest, error: unknown): boolean {
    const quirks = this.#quirks(request.model)
    if (request.jsonSchema !== undefined && quirks.responseFormat !== 'none' && isUnsupportedParameter(error, RESPONSE_FORMAT_WORDS)) {
      quirks.responseFormat = quirks.responseFormat === 'json_schema' ? 'json_object' : 'none'
      return true
    }
    if (request.temperature !== undefined && quirks.temperature && isUnsupportedParameter(error, ['temperature'])) {
      quirks.temperature = false
      return true
    }
    if (request.maxTokens !== undefined && quirks.maxTokens === 'max_tokens' && isUnsupportedParameter(error, ['max_tokens'])) {
      quirks.maxTokens = 'max_completion_tokens'
      return true
    }
    return false
  }

  #quirks(model: string): ModelQuirks {
    let quirks = this.#byModel.get(model)
    if (quirks === undefined) {
      quirks = { responseFormat: 'json_schema', temperature: true, maxTokens: 'max_tokens' }
      this.#byModel.set(model, quirks)
    }
    return quirks
  }
}
