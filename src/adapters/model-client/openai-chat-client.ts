import { setMaxListeners } from 'node:events'
import { APIConnectionError, APIError } from 'openai/error'
import type { ChatCompletionCreateParamsNonStreaming, ChatCompletionMessageParam } from 'openai/resources/chat/completions'
import type { ResponseFormatJSONSchema } from 'openai/resources/shared'
import { readCompletion } from './completion.ts'
import type { ModelCallContext } from './model-call.ts'
import { classifyError, errorHeaders, isTransient, modelError } from './classify-error.ts'
import { abortReason, pauseBeforeRetry, sleep, type RetryPolicy } from './retry.ts'
import { ServerQuirks } from './server-quirks.ts'
import { cacheKey, noCache, type ModelCache } from './model-cache.ts'
import { RateLimiter, type RateLimits } from './rate-limiter.ts'
import { createMask, type Mask } from '../../base/shared/secrets.ts'
import type { Fetch } from '../../base/http/fetch-type.ts'
import { headerOf, RequestTimedOut, sendWhole, type SendWhole, type WholeAnswer } from '../../base/http/whole.ts'
import { errorMessage, rootCause } from '../../base/shared/errors.ts'
import { CONVY_VERSION } from '../../base/shared/version.ts'

/** Servers that need no key get this in the header, as the `openai` client sends when it has none. */
const NO_KEY = 'no-key'
const OPENAI_BASE_URL = 'https://api.openai.com/v1'

export interface ChatClientOptions {
  /** Default: OpenAI itself. Passed explicitly so the `openai` package never reads the environment. */
  baseURL?: string
  apiKey?: string
  /** Each try is cut off after this long, the answer's body included. */
  timeoutSeconds: number
  retry: RetryPolicy
  /** The HTTP client; default: the built-in fetch. A run passes its own (src/http/fetch.ts). */
  fetch?: Fetch
  /** Answers kept from earlier runs; default none. */
  cache?: ModelCache
  /** Limits by model name, shared by every call this client makes. */
  limits?: Readonly<Record<string, RateLimits>>
}

export interface ChatRequest {
  model: string
  /** Who is asking, for error messages: "judge", "simulated user". */
  purpose: string
  messages: ChatCompletionMessageParam[]
  temperature?: number
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
 * models: no hidden retries, every try counted and reported through `context.record`, failures as
 * ModelError with the API key masked.
 *
 * Requests go straight through the run's HTTP client, not through the `openai` client: at a few
 * thousand calls a second, its per-request work (Request, Headers, Response, web streams, its
 * logging) cost more CPU than the rest of the runner (bench/runner.ts, docs/performance.md).
 * Its types and error classes are kept: a failed try becomes the APIError the client would throw,
 * so classification, Retry-After and the fallbacks read the same thing.
 */
export class ChatClient {
  readonly #send: SendWhole
  readonly #url: string
  readonly #headers: Readonly<Record<string, string>>
  readonly #timeoutMs: number
  readonly #retry: RetryPolicy
  readonly #mask: Mask
  readonly #quirks = new ServerQuirks()
  readonly #cache: ModelCache
  readonly #limiters = new Map<string, RateLimiter>()
  readonly #limits: Readonly<Record<string, RateLimits>>
  #listenedTo: AbortSignal | undefined

  constructor(options: ChatClientOptions) {
    this.#timeoutMs = options.timeoutSeconds * 1000
    this.#retry = options.retry
    this.#mask = createMask(options.apiKey === undefined ? [] : [options.apiKey])
    this.#cache = options.cache ?? noCache
    this.#limits = options.limits ?? {}
    this.#send = sendWhole(options.fetch ?? fetch)
    // Joined as the `openai` client joins its base URL and a path.
    const base = options.baseURL || OPENAI_BASE_URL
    this.#url = new URL(`${base}${base.endsWith('/') ? '' : '/'}chat/completions`).toString()
    this.#headers = {
      authorization: `Bearer ${options.apiKey ?? NO_KEY}`,
      'content-type': 'application/json',
      accept: 'application/json',
      'user-agent': `convy-ci/${CONVY_VERSION}`,
    }
  }

  /** One call: tries until an answer, a failure not worth retrying, or the end of the budget. */
  async complete(request: ChatRequest, context: ModelCallContext): Promise<ChatAnswer> {
    const started = performance.now()
    const key = this.#cache.mode !== 'off' && context.cacheScope !== undefined ? cacheKey({ model: request.model, request: cachedPart(request), scope: context.cacheScope }) : undefined
    const hit = key === undefined ? undefined : await this.#cache.get(key)
    if (hit) {
      context.record({ tries: 0, inputTokens: 0, outputTokens: 0, seconds: (performance.now() - started) / 1000, cached: true })
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
          const failure = error instanceof RequestTimedOut ? 'timeout' : classifyError(error)
          if (!isTransient(failure) || tries - adjustments >= this.#retry.maxTries) {
            throw modelError(failure, what, tries, error, this.#mask)
          }
          const pause = pauseBeforeRetry(this.#retry, tries - adjustments, errorHeaders(error))
          // The server is overloaded for everyone: every call to this model waits, not just this one.
          if (failure === 'rate_limited') limiter.pause(pause)
          await sleep(pause, context.signal)
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
      context.record({ tries, inputTokens, outputTokens, seconds: (performance.now() - started) / 1000 })
    }
  }

  #limiter(model: string): RateLimiter {
    let limiter = this.#limiters.get(model)
    if (!limiter) {
      limiter = new RateLimiter(this.#limits[model] ?? {})
      this.#limiters.set(model, limiter)
    }
    return limiter
  }

  /** One HTTP request, cut off after the timeout; resolves to the parsed body, whatever its shape. */
  async #try(request: ChatRequest, signal: AbortSignal): Promise<unknown> {
    // The caller's signal is shared by every attempt in flight, and each request listens on it:
    // lift Node's warning past ten listeners, once per signal.
    if (signal !== this.#listenedTo) {
      setMaxListeners(0, signal)
      this.#listenedTo = signal
    }
    const body: ChatCompletionCreateParamsNonStreaming = { model: request.model, messages: request.messages, ...this.#quirks.optionalParameters(request) }
    let answer: WholeAnswer
    try {
      // The timeout is the HTTP client's own timer, not an AbortController per try: at thousands of
      // tries a run, a controller, its signal and a listener each were a visible share of the CPU.
      answer = await this.#send(this.#url, { method: 'POST', headers: this.#headers, body: JSON.stringify(body), signal, timeoutMs: this.#timeoutMs })
    } catch (error) {
      // The try's own timer is said as what it was; the caller's abort is the caller's to report.
      if (error instanceof RequestTimedOut || signal.aborted) throw error
      throw new APIConnectionError({ message: `Connection error: ${errorMessage(rootCause(error))}`, cause: error instanceof Error ? error : undefined })
    }
    return readAnswer(answer)
  }
}

/**
 * The body of an answer as the `openai` client reads it: JSON when the server says so (a body that is
 * not throws SyntaxError), else the text; a non-2xx status is the APIError the client would throw.
 */
function readAnswer(answer: WholeAnswer): unknown {
  if (answer.status < 200 || answer.status > 299) {
    const json = safeJson(answer.text)
    const headers = new Headers()
    for (const [name, value] of Object.entries(answer.headers)) {
      if (Array.isArray(value)) for (const item of value) headers.append(name, item)
      else if (value !== undefined) headers.set(name, value)
    }
    throw APIError.generate(answer.status, json as object | undefined, json ? undefined : answer.text, headers)
  }
  if (answer.status === 204) return null
  const mediaType = headerOf(answer, 'content-type')?.split(';')[0]?.trim()
  if (mediaType?.includes('application/json') || mediaType?.endsWith('+json')) {
    return headerOf(answer, 'content-length') === '0' ? undefined : (JSON.parse(answer.text) as unknown)
  }
  return answer.text
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown
  } catch {
    return undefined
  }
}

/** What decides an answer, as convy-ci asks it (server fallbacks aside). */
function cachedPart(request: ChatRequest): unknown {
  return { messages: request.messages, temperature: request.temperature ?? null, jsonSchema: request.jsonSchema ?? null }
}

function preview(body: unknown): string {
  const text = typeof body === 'string' ? body : JSON.stringify(body) ?? String(body)
  return text.length > 200 ? `${text.slice(0, 200)}…` : text
}
