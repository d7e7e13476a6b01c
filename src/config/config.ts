import * as z from 'zod'

/**
 * convy.yml after ${VAR} interpolation and validation. Keys are snake_case in YAML (as SPEC.md shows)
 * and keep that spelling here, so an error path names the key the user wrote.
 */
const headers = z.record(z.string(), z.string())

/** PEM files relative to convy.yml: a CA to trust, and a client certificate with its key. */
const tls = z
  .object({ ca: z.string().min(1).optional(), cert: z.string().min(1).optional(), key: z.string().min(1).optional() })
  .strict()
  .refine((t) => (t.cert === undefined) === (t.key === undefined), 'tls.cert and tls.key go together: a client certificate needs its key')
  .optional()

/** A dotted path into a JSON answer or event: `data.answer`, `choices.0.delta.content`. */
const path = z.string().min(1)
/** Dotted paths to the input and output token counts. */
const tokenPaths = z.tuple([path, path]).optional()
const extraFields = z.record(z.string(), z.unknown())

/** What every agent reached over HTTP takes besides its protocol's own keys. */
/** Dollars per million of the agent's own tokens, [input, output]: its cost beside convy-ci's models'. */
const price = z.tuple([z.number().nonnegative(), z.number().nonnegative()]).optional()

/** Kilobytes of one answer kept (UTF-8); the rest is cut and marked. Default 1024 (agents/reply-limit.ts). */
const max_reply_kb = z.number().int().min(1).max(1024 * 1024).optional()

const http = { url: z.url(), headers: headers.default({}), tls, version: z.string().optional(), price, max_reply_kb }

export const JsonAgentConfigSchema = z
  .object({
    protocol: z.literal('json'),
    ...http,
    method: z.enum(['POST', 'PUT']).default('POST'),
    /** Any JSON; strings may hold {text} and {session}; the string "{history}" becomes the message list. */
    body: z.unknown(),
    /** Dotted path to the answer's text in the JSON response: `data.answer`, `choices.0.message.content`. */
    reply: path,
    tokens: tokenPaths,
  })
  .strict()
export type JsonAgentConfig = z.infer<typeof JsonAgentConfigSchema>

export const OpenAIChatAgentConfigSchema = z
  .object({
    protocol: z.literal('openai-chat'),
    /** The base URL, as for the `openai` client: `http://localhost:8000/v1`. */
    ...http,
    model: z.string().min(1),
    api_key: z.string().optional(),
    /** A system message sent first in every conversation. */
    system: z.string().optional(),
    /** Ask for server-sent events (with usage in the last chunk). */
    stream: z.boolean().default(false),
    /** Extra fields merged into every request body (temperature, user, …). */
    extra_body: extraFields.default({}),
  })
  .strict()
export type OpenAIChatAgentConfig = z.infer<typeof OpenAIChatAgentConfigSchema>

export const OpenAIResponsesAgentConfigSchema = z
  .object({
    protocol: z.literal('openai-responses'),
    /** The base URL, as for the `openai` client: `http://localhost:8000/v1`. */
    ...http,
    model: z.string().min(1),
    api_key: z.string().optional(),
    /** Sent as `instructions` with every request. */
    instructions: z.string().optional(),
    stream: z.boolean().default(false),
    extra_body: extraFields.default({}),
  })
  .strict()
export type OpenAIResponsesAgentConfig = z.infer<typeof OpenAIResponsesAgentConfigSchema>

export const AiSdkAgentConfigSchema = z
  .object({
    protocol: z.literal('ai-sdk'),
    /** The chat route: `http://localhost:3000/api/chat`. */
    ...http,
    /** Extra fields merged into every request body, as `useChat`'s `body` option adds them. */
    body: extraFields.default({}),
    /** Dotted paths into the message metadata; default: `usage` or `totalUsage` with inputTokens / outputTokens. */
    tokens: tokenPaths,
  })
  .strict()
export type AiSdkAgentConfig = z.infer<typeof AiSdkAgentConfigSchema>

export const A2aAgentConfigSchema = z
  .object({
    protocol: z.literal('a2a'),
    /** Where the agent card is: the agent's base URL, or the card's own URL (…/agent-card.json). */
    ...http,
    stream: z.boolean().default(false),
    /** The protocol version to speak; default: the newest the card offers over JSON-RPC. */
    a2a_version: z.enum(['1.0', '0.3']).optional(),
    /** The JSON-RPC URL, instead of the one the card gives (an agent behind a proxy). */
    endpoint: z.url().optional(),
    /** Dotted paths into the task's or message's metadata. */
    tokens: tokenPaths,
  })
  .strict()
export type A2aAgentConfig = z.infer<typeof A2aAgentConfigSchema>

export const LangGraphAgentConfigSchema = z
  .object({
    protocol: z.literal('langgraph'),
    /** The LangGraph server's base URL: `http://localhost:2024`. */
    ...http,
    assistant_id: z.string().min(1).default('agent'),
    /** `runs/stream` (messages as they are written) instead of `runs/wait`. */
    stream: z.boolean().default(false),
    /** Passed with every run, as the LangGraph SDK's `config` and `context`. */
    config: extraFields.optional(),
    context: extraFields.optional(),
  })
  .strict()
export type LangGraphAgentConfig = z.infer<typeof LangGraphAgentConfigSchema>

/** Where the parts of an answer are in each event (SSE) or line (NDJSON) of a generic stream. */
const streamShape = {
  ...http,
  method: z.enum(['POST', 'PUT']).default('POST'),
  /** As a JSON agent's: {text}, {session} and "{history}". */
  body: z.unknown(),
  /** A piece of the answer's text, appended. */
  delta: path.optional(),
  /** The whole answer's text; when present it wins over the pieces. */
  text: path.optional(),
  tokens: tokenPaths,
  /** A session id the agent gives back: later requests of the conversation send it as {session}. */
  session: path.optional(),
  /** Tool calls: a path to one call or a list of them, and where name and arguments are in each. */
  tool_calls: z.object({ path, name: path.default('name'), arguments: path.default('arguments') }).strict().optional(),
  /**
   * The end of the answer: a path that is true on the last event, `[DONE]` (SSE data), or `event:NAME`
   * (SSE). When set, a stream that ends without it is an error: the connection broke off.
   */
  done: z.string().min(1).optional(),
  /** A path that holds an error: an event with a value there is an agent error. Default `error`. */
  error: path.default('error'),
}
const needsText = (c: { delta?: string; text?: string }) => c.delta !== undefined || c.text !== undefined
const NEEDS_TEXT = { message: 'set `delta` (a piece of text in each event) or `text` (the whole answer), or both' }

export const SseAgentConfigSchema = z
  .object({ protocol: z.literal('sse'), ...streamShape })
  .strict()
  .refine(needsText, NEEDS_TEXT)
export const NdjsonAgentConfigSchema = z
  .object({ protocol: z.literal('ndjson'), ...streamShape })
  .strict()
  .refine(needsText, NEEDS_TEXT)
export type StreamAgentConfig = z.infer<typeof SseAgentConfigSchema> | z.infer<typeof NdjsonAgentConfigSchema>

export const ModuleAgentConfigSchema = z
  .object({
    protocol: z.literal('module'),
    /** Path to a .ts/.js/.mjs file that exports `agent`, relative to convy.yml. */
    module: z.string().min(1),
    price,
    max_reply_kb,
  })
  .strict()
export type ModuleAgentConfig = z.infer<typeof ModuleAgentConfigSchema>

export const AgentConfigSchema = z.discriminatedUnion('protocol', [
  JsonAgentConfigSchema,
  OpenAIChatAgentConfigSchema,
  OpenAIResponsesAgentConfigSchema,
  AiSdkAgentConfigSchema,
  A2aAgentConfigSchema,
  LangGraphAgentConfigSchema,
  SseAgentConfigSchema,
  NdjsonAgentConfigSchema,
  ModuleAgentConfigSchema,
])
export type AgentConfig = z.infer<typeof AgentConfigSchema> | { protocol: 'echo' }
/** The agents reached over HTTP: every one takes `url`, `headers`, `tls` and `version`. */
export type HttpAgentConfig = Exclude<AgentConfig, { protocol: 'echo' | 'module' }>

export const ModelsConfigSchema = z
  .object({
    base_url: z.url().optional(),
    api_key: z.string().optional(),
    user: z.string().min(1).optional(),
    judge: z.string().min(1).optional(),
    /** Dollars per million tokens, [input, output], by model name. */
    prices: z.record(z.string(), z.tuple([z.number().nonnegative(), z.number().nonnegative()])).default({}),
    /**
     * Review each failed attempt of the simulated user with the judge's model, and leave the attempts
     * its own mistake decided out of the pass rate (user_error). `run --review` / `--no-review` override.
     */
    review: z.boolean().default(true),
    /** Sampling temperature for the simulated user; the judge always runs at 0. */
    temperature: z.number().min(0).max(2).optional(),
    /** Seconds for one model request before it counts as a timeout and is retried. */
    timeout: z.number().positive().default(120),
    /** Tries per call, the first included, for 429, 5xx, timeouts and connection errors. */
    max_tries: z.number().int().min(1).max(20).default(6),
    /** Limits by model name, honoured across all parallel attempts of a run. */
    rate_limits: z
      .record(
        z.string(),
        z
          .object({
            requests_per_minute: z.number().positive().optional(),
            tokens_per_minute: z.number().positive().optional(),
            concurrency: z.number().int().positive().optional(),
          })
          .strict(),
      )
      .default({}),
  })
  .strict()
export type ModelsConfig = z.infer<typeof ModelsConfigSchema>
