import * as z from '../../base/shared/zod.ts'
import type { Scenario } from './scenario.ts'
import type { Hook, Limits, SimulatedUserSettings } from './world.ts'

/**
 * The world keys of a scenario file (and of an agent in convy.yml) as users write them, in
 * snake_case, and their conversion to the scenario's own shape (world.ts).
 */
const trimmedText = z.string().check(z.trim(), z.minLength(1))
const positive = z.number().check(z.positive())

/** `{ url, method, headers, body }` like a JSON agent's request, or `{ module, export }` for a function in a module. */
export const HookFileSchema = z.union([
  z.strictObject({
    url: z.nonEmptyText,
    method: z.optional(z.enum(['GET', 'POST', 'PUT', 'PATCH', 'DELETE'])),
    headers: z.optional(z.record(z.string(), z.string())),
    body: z.optional(z.unknown()),
  }),
  z.strictObject({ module: z.nonEmptyText, export: z.optional(z.nonEmptyText) }),
])
export type HookFile = z.infer<typeof HookFileSchema>

export const LimitsFileSchema = z.strictObject({
  answer_ms: z.optional(positive),
  attempt_ms: z.optional(positive),
  agent_tokens: z.optional(z.int().check(z.positive())),
  cost_usd: z.optional(positive),
})
export type LimitsFile = z.infer<typeof LimitsFileSchema>

export const SimulatedUserFileSchema = z.strictObject({
  model: z.optional(z.nonEmptyText),
  temperature: z.optional(z.number().check(z.gte(0), z.lte(2))),
  max_tokens: z.optional(z.int().check(z.positive())),
})

export const ContextFileSchema = z.record(z.string(), z.unknown())

/** The world keys of a scenario file. */
export const WorldFileShape = {
  /** A map handed to the agent, the simulated user and the judge; values may use ${VAR}. */
  context: z.optional(ContextFileSchema),
  setup: z.optional(HookFileSchema),
  teardown: z.optional(HookFileSchema),
  simulated_user: z.optional(SimulatedUserFileSchema),
  limits: z.optional(LimitsFileSchema),
  stop_if: z.optional(z.array(trimmedText).check(z.minLength(1))),
}
type WorldFile = { [K in keyof typeof WorldFileShape]?: z.infer<(typeof WorldFileShape)[K]> }

export function hookOf(file: HookFile, defaultExport: 'setup' | 'teardown'): Hook {
  if ('module' in file) return { kind: 'module', module: file.module, export: file.export ?? defaultExport }
  return { kind: 'http', url: file.url, method: file.method ?? 'POST', headers: file.headers ?? {}, ...(file.body === undefined ? {} : { body: file.body }) }
}

export function limitsOf(file: LimitsFile): Limits {
  return {
    ...(file.answer_ms === undefined ? {} : { answerMs: file.answer_ms }),
    ...(file.attempt_ms === undefined ? {} : { attemptMs: file.attempt_ms }),
    ...(file.agent_tokens === undefined ? {} : { agentTokens: file.agent_tokens }),
    ...(file.cost_usd === undefined ? {} : { costUsd: file.cost_usd }),
  }
}

function userSettingsOf(file: z.infer<typeof SimulatedUserFileSchema>): SimulatedUserSettings {
  return {
    ...(file.model === undefined ? {} : { model: file.model }),
    ...(file.temperature === undefined ? {} : { temperature: file.temperature }),
    ...(file.max_tokens === undefined ? {} : { maxTokens: file.max_tokens }),
  }
}

/** The scenario's world keys from the file's, each present only when the file sets it (old fingerprints stay as they were). */
export function worldOf(raw: WorldFile): Pick<Scenario, 'context' | 'setup' | 'teardown' | 'simulatedUser' | 'limits' | 'stopIf'> {
  return {
    ...(raw.context === undefined ? {} : { context: raw.context }),
    ...(raw.setup === undefined ? {} : { setup: hookOf(raw.setup, 'setup') }),
    ...(raw.teardown === undefined ? {} : { teardown: hookOf(raw.teardown, 'teardown') }),
    ...(raw.simulated_user === undefined ? {} : { simulatedUser: userSettingsOf(raw.simulated_user) }),
    ...(raw.limits === undefined ? {} : { limits: limitsOf(raw.limits) }),
    ...(raw.stop_if === undefined ? {} : { stopIf: raw.stop_if }),
  }
}
