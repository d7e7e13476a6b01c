import * as z from '../../base/shared/zod.ts'
import { isProxySetting } from '../../base/http/proxy.ts'
import { ContextFileSchema, HookFileSchema, LimitsFileSchema } from '../scenario/load-world.ts'

/**
 * convy.yml after ${VAR} interpolation and validation. Keys are snake_case in YAML (as users write them)
 * and keep that spelling here, so an error path names the key the user wrote.
 */
const headers = z.record(z.string(), z.string())

/** PEM files relative to convy.yml: a CA to trust, and a client certificate with its key. */
const pemFile = z.optional(z.nonEmptyText)
const tls = z.optional(
  z
    .strictObject({ ca: pemFile, cert: pemFile, key: pemFile })
    .check(z.refine((t) => (t.cert === undefined) === (t.key === undefined), 'tls.cert and tls.key go together: a client certificate needs its key')),
)

/** A dotted path into a JSON answer or event: `data.answer`, `choices.0.delta.content`. */
const path = z.nonEmptyText
/** Dotted paths to the input and output token counts. */
const tokenPaths = z.optional(z.tuple([path, path]))
const extraFields = z.record(z.string(), z.unknown())

/** Dollars per million of the agent's own tokens, [input, output]: its cost beside convy-ci's models'. */
const dollars = z.number().check(z.nonnegative())
const price = z.optional(z.tuple([dollars, dollars]))

/** Kilobytes of one answer kept (UTF-8); the rest is cut and marked. Default 1024 (agents/reply-limit.ts). */
const max_reply_kb = z.optional(z.int().check(z.gte(1), z.lte(1024 * 1024)))

const optionalText = z.optional(z.string())
const method = z._default(z.enum(['POST', 'PUT']), 'POST')
const noStream = z._default(z.boolean(), false)

/** A proxy for every request of an agent or of the models (`http://user:pass@host:port`), or `none`. */
const proxy = z.optional(z.nonEmptyText.check(z.refine(isProxySetting, 'is not a proxy address; write http://host:port (or https://), or none')))

/**
 * The world every scenario of this agent is played in (docs/configuration.md): a context the
 * scenario's own keys override, a set-up and a tear-down around each attempt (a scenario's own replace
 * them), and default limits per attempt (a scenario's own override them key by key).
 */
const world = { context: z.optional(ContextFileSchema), setup: z.optional(HookFileSchema), teardown: z.optional(HookFileSchema), limits: z.optional(LimitsFileSchema) }
export type AgentWorldConfig = { [K in keyof typeof world]?: z.infer<(typeof world)[K]> }

/**
 * Where a scenario's tools are served for this agent (docs/tools.md): a host to listen on and to put
 * in `tools_url`, or `{ listen, advertise }` apart, for an agent in a container (listen on 0.0.0.0 or
 * the Docker bridge, advertise the address the container reaches the runner by). Default 127.0.0.1.
 */
const host = z.nonEmptyText.check(z.regex(/^[A-Za-z0-9.:_[\]-]+$/, 'a host name or an IP address'))
const tools_host = z.optional(z.union([host, z.strictObject({ listen: host, advertise: z.optional(host) })]))
export type ToolsHostConfig = z.infer<typeof tools_host>

/** What every agent reached over HTTP takes besides its protocol's own keys. */
const http = { url: z.url(), headers: z._default(headers, {}), tls, proxy, version: optionalText, price, max_reply_kb, ...world, tools_host }

export const JsonAgentConfigSchema = z.strictObject({
  protocol: z.literal('json'),
  ...http,
  method,
  /** Any JSON; strings may hold {text} and {session}; the string "{history}" becomes the message list. */
  body: z.unknown(),
  /**
   * Dotted path to the answer's text in the JSON response: `data.answer`, `choices.0.message.content`.
   * A list of strings there is an answer of several messages; `*` takes each item of a list (`messages.*.text`).
   */
  reply: path,
  tokens: tokenPaths,
})
export type JsonAgentConfig = z.infer<typeof JsonAgentConfigSchema>

export const OpenAIChatAgentConfigSchema = z.strictObject({
  protocol: z.literal('openai-chat'),
  /** The base URL, as for the `openai` client: `http://localhost:8000/v1`. */
  ...http,
  model: z.nonEmptyText,
  api_key: optionalText,
  /** A system message sent first in every conversation. */
  system: optionalText,
  /** Ask for server-sent events (with usage in the last chunk). */
  stream: noStream,
  /** Extra fields merged into every request body (temperature, user, …). */
  extra_body: z._default(extraFields, {}),
})
export type OpenAIChatAgentConfig = z.infer<typeof OpenAIChatAgentConfigSchema>

export const OpenAIResponsesAgentConfigSchema = z.strictObject({
  protocol: z.literal('openai-responses'),
  /** The base URL, as for the `openai` client: `http://localhost:8000/v1`. */
  ...http,
  model: z.nonEmptyText,
  api_key: optionalText,
  /** Sent as `instructions` with every request. */
  instructions: optionalText,
  stream: noStream,
  extra_body: z._default(extraFields, {}),
})
export type OpenAIResponsesAgentConfig = z.infer<typeof OpenAIResponsesAgentConfigSchema>

export const AiSdkAgentConfigSchema = z.strictObject({
  protocol: z.literal('ai-sdk'),
  /** The chat route: `http://localhost:3000/api/chat`. */
  ...http,
  /** Extra fields merged into every request body, as `useChat`'s `body` option adds them. */
  body: z._default(extraFields, {}),
  /** Dotted paths into the message metadata; default: `usage` or `totalUsage` with inputTokens / outputTokens. */
  tokens: tokenPaths,
})
export type AiSdkAgentConfig = z.infer<typeof AiSdkAgentConfigSchema>

export const A2aAgentConfigSchema = z.strictObject({
  protocol: z.literal('a2a'),
  /** Where the agent card is: the agent's base URL, or the card's own URL (…/agent-card.json). */
  ...http,
  stream: noStream,
  /** The protocol version to speak; default: the newest the card offers over JSON-RPC. */
  a2a_version: z.optional(z.enum(['1.0', '0.3'])),
  /** The JSON-RPC URL, instead of the one the card gives (an agent behind a proxy). */
  endpoint: z.optional(z.url()),
  /** Dotted paths into the task's or message's metadata. */
  tokens: tokenPaths,
})
export type A2aAgentConfig = z.infer<typeof A2aAgentConfigSchema>

export const LangGraphAgentConfigSchema = z.strictObject({
  protocol: z.literal('langgraph'),
  /** The LangGraph server's base URL: `http://localhost:2024`. */
  ...http,
  assistant_id: z._default(z.nonEmptyText, 'agent'),
  /** `runs/stream` (messages as they are written) instead of `runs/wait`. */
  stream: noStream,
  /** Passed with every run, as the LangGraph SDK's `config` and `context`. */
  config: z.optional(extraFields),
  context: z.optional(extraFields),
})
export type LangGraphAgentConfig = z.infer<typeof LangGraphAgentConfigSchema>

/** Where the parts of an answer are in each event (SSE) or line (NDJSON) of a generic stream. */
const streamShape = {
  ...http,
  method,
  /** As a JSON agent's: {text}, {session} and "{history}". */
  body: z.unknown(),
  /** A piece of the answer's text, appended. */
  delta: z.optional(path),
  /** The whole answer's text; when present it wins over the pieces. */
  text: z.optional(path),
  tokens: tokenPaths,
  /** A session id the agent gives back: later requests of the conversation send it as {session}. */
  session: z.optional(path),
  /** Tool calls: a path to one call or a list of them, and where name and arguments are in each. */
  tool_calls: z.optional(z.strictObject({ path, name: z._default(path, 'name'), arguments: z._default(path, 'arguments') })),
  /**
   * The end of the answer: a path that is true on the last event, `[DONE]` (SSE data), or `event:NAME`
   * (SSE). When set, a stream that ends without it is an error: the connection broke off.
   */
  done: z.optional(z.nonEmptyText),
  /** A path that holds an error: an event with a value there is an agent error. Default `error`. */
  error: z._default(path, 'error'),
}
const needsText = (c: { delta?: string; text?: string }) => c.delta !== undefined || c.text !== undefined
const NEEDS_TEXT = { message: 'set `delta` (a piece of text in each event) or `text` (the whole answer), or both' }

export const SseAgentConfigSchema = z.strictObject({ protocol: z.literal('sse'), ...streamShape }).check(z.refine(needsText, NEEDS_TEXT))
export const NdjsonAgentConfigSchema = z.strictObject({ protocol: z.literal('ndjson'), ...streamShape }).check(z.refine(needsText, NEEDS_TEXT))
export type StreamAgentConfig = z.infer<typeof SseAgentConfigSchema> | z.infer<typeof NdjsonAgentConfigSchema>

export const ModuleAgentConfigSchema = z.strictObject({
  protocol: z.literal('module'),
  /** Path to a .ts/.js/.mjs file that exports `agent`, relative to convy.yml. */
  module: z.nonEmptyText,
  price,
  max_reply_kb,
  ...world,
  tools_host,
})
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

export const ModelsConfigSchema = z.strictObject({
  base_url: z.optional(z.url()),
  api_key: optionalText,
  proxy,
  user: z.optional(z.nonEmptyText),
  judge: z.optional(z.nonEmptyText),
  /** Dollars per million tokens, [input, output], by model name. */
  prices: z._default(z.record(z.string(), z.tuple([dollars, dollars])), {}),
  /**
   * Review each failed attempt of the simulated user with the judge's model, and leave the attempts
   * its own mistake decided out of the pass rate (user_error). `run --review` / `--no-review` override.
   */
  review: z._default(z.boolean(), true),
  /** Sampling temperature for the simulated user; the judge always runs at 0. */
  temperature: z.optional(z.number().check(z.gte(0), z.lte(2))),
  /** Seconds for one model request before it counts as a timeout and is retried. */
  timeout: z._default(z.number().check(z.positive()), 120),
  /** Tries per call, the first included, for 429, 5xx, timeouts and connection errors. */
  max_tries: z._default(z.int().check(z.gte(1), z.lte(20)), 6),
  /** Limits by model name, honoured across all parallel attempts of a run. */
  rate_limits: z._default(
    z.record(
      z.string(),
      z.strictObject({
        requests_per_minute: z.optional(z.number().check(z.positive())),
        tokens_per_minute: z.optional(z.number().check(z.positive())),
        concurrency: z.optional(z.int().check(z.positive())),
      }),
    ),
    {},
  ),
})
export type ModelsConfig = z.infer<typeof ModelsConfigSchema>
