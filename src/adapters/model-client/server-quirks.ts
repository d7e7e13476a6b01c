import type { ChatCompletionCreateParamsNonStreaming } from 'openai/resources/chat/completions'
import type { ResponseFormatJSONSchema } from 'openai/resources/shared'
import { isUnsupportedParameter } from './classify-error.ts'

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
