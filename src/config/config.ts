import { z } from 'zod'

/**
 * convy.yml after ${VAR} interpolation and validation. Keys are snake_case in YAML (as SPEC.md shows)
 * and keep that spelling here, so an error path names the key the user wrote.
 */
const headers = z.record(z.string(), z.string())

export const JsonAgentConfigSchema = z
  .object({
    protocol: z.literal('json'),
    url: z.url(),
    method: z.enum(['POST', 'PUT']).default('POST'),
    headers: headers.default({}),
    /** Any JSON; strings may hold {text} and {session}; the string "{history}" becomes the message list. */
    body: z.unknown(),
    /** Dotted path to the answer's text in the JSON response: `data.answer`, `choices.0.message.content`. */
    reply: z.string().min(1),
    /** Dotted paths to the input and output token counts. */
    tokens: z.tuple([z.string().min(1), z.string().min(1)]).optional(),
    version: z.string().optional(),
  })
  .strict()
export type JsonAgentConfig = z.infer<typeof JsonAgentConfigSchema>

export const OpenAIChatAgentConfigSchema = z
  .object({
    protocol: z.literal('openai-chat'),
    /** The base URL, as for the `openai` client: `http://localhost:8000/v1`. */
    url: z.url(),
    model: z.string().min(1),
    api_key: z.string().optional(),
    headers: headers.default({}),
    /** A system message sent first in every conversation. */
    system: z.string().optional(),
    /** Extra fields merged into every request body (temperature, user, …). */
    extra_body: z.record(z.string(), z.unknown()).default({}),
    version: z.string().optional(),
  })
  .strict()
export type OpenAIChatAgentConfig = z.infer<typeof OpenAIChatAgentConfigSchema>

export const ModuleAgentConfigSchema = z
  .object({
    protocol: z.literal('module'),
    /** Path to a .ts/.js/.mjs file that exports `agent`, relative to convy.yml. */
    module: z.string().min(1),
  })
  .strict()
export type ModuleAgentConfig = z.infer<typeof ModuleAgentConfigSchema>

export const AgentConfigSchema = z.discriminatedUnion('protocol', [
  JsonAgentConfigSchema,
  OpenAIChatAgentConfigSchema,
  ModuleAgentConfigSchema,
])
export type AgentConfig = z.infer<typeof AgentConfigSchema> | { protocol: 'echo' }

export const ModelsConfigSchema = z
  .object({
    base_url: z.url().optional(),
    api_key: z.string().optional(),
    user: z.string().min(1).optional(),
    judge: z.string().min(1).optional(),
    /** Dollars per million tokens, [input, output], by model name. */
    prices: z.record(z.string(), z.tuple([z.number().nonnegative(), z.number().nonnegative()])).default({}),
    /** Sampling temperature for the simulated user; the judge always runs at 0. */
    temperature: z.number().min(0).max(2).optional(),
    /** Seconds for one model request before it counts as a timeout and is retried. */
    timeout: z.number().positive().default(120),
    /** Tries per call, the first included, for 429, 5xx, timeouts and connection errors. */
    max_tries: z.number().int().min(1).max(20).default(6),
  })
  .strict()
export type ModelsConfig = z.infer<typeof ModelsConfigSchema>
