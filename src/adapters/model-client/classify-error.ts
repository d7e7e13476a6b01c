import { APIConnectionError, APIConnectionTimeoutError, APIError } from 'openai/error'
import { ModelError, type ModelFailure } from './model-call.ts'
import { errorMessage } from '../../base/shared/errors.ts'

/** Failures worth another try: the server or the network may do better in a moment. */
const TRANSIENT: ReadonlySet<ModelFailure> = new Set(['rate_limited', 'server_error', 'timeout', 'connection'])

export function isTransient(failure: ModelFailure): boolean {
  return TRANSIENT.has(failure)
}

/** What one failed try of a chat completion amounts to. */
export function classifyError(error: unknown): ModelFailure {
  if (error instanceof APIConnectionTimeoutError) return 'timeout'
  if (error instanceof APIConnectionError) return 'connection'
  if (error instanceof APIError && error.status !== undefined) {
    if (error.status === 429) return 'rate_limited'
    if (error.status === 408) return 'timeout'
    if (error.status >= 500) return 'server_error'
    return 'rejected'
  }
  // A 200 whose body is not JSON: the client's JSON parser throws. Asking again rarely helps (a wrong
  // base URL serving a web page answers the same way every time).
  if (error instanceof SyntaxError) return 'bad_answer'
  // Anything else the fetch layer throws (a socket closed mid-body, a reset) is the network's.
  return 'connection'
}

/** The HTTP headers of a failed try, for Retry-After. */
export function errorHeaders(error: unknown): Headers | undefined {
  return error instanceof APIError ? error.headers : undefined
}

/**
 * True when a 400 (or 422) says the server does not support something in the request. Servers word
 * this differently (OpenAI, vLLM, Ollama, LiteLLM, Azure…), so the test is on the words that name the
 * parameter; `names` are those words.
 */
export function isUnsupportedParameter(error: unknown, names: readonly string[]): boolean {
  if (!(error instanceof APIError) || (error.status !== 400 && error.status !== 422)) return false
  const text = `${error.message} ${error.param ?? ''} ${error.code ?? ''}`.toLowerCase()
  return names.some((name) => text.includes(name))
}

const DESCRIPTIONS: Record<ModelFailure, string> = {
  rate_limited: 'rate limited (429)',
  server_error: 'server error',
  timeout: 'timed out',
  connection: 'connection failed',
  rejected: 'request rejected',
  bad_answer: 'unusable answer',
  refusal: 'refused',
}

/**
 * A ModelError that says which model, what went wrong and after how many tries, with secrets masked.
 * The original error is not kept as `cause`: it may hold what a server echoed back, key included.
 */
export function modelError(failure: ModelFailure, what: string, tries: number, detail: unknown, mask: (text: string) => string): ModelError {
  const after = tries > 1 ? ` after ${tries} tries` : ''
  const text = typeof detail === 'string' ? detail : errorMessage(detail)
  return new ModelError(failure, mask(`${what}: ${DESCRIPTIONS[failure]}${after}: ${text}`))
}
