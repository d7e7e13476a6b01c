import * as z from '../../base/shared/zod.ts'

/**
 * The world a scenario's attempts are played in (docs/scenarios.md, "Setting up the world"): the
 * context handed to the agent, the simulated user and the judge; the set-up and tear-down around each
 * attempt; the simulated user's own settings; and the limits an attempt must stay within. Each is part
 * of the scenario's identity (scenario.ts): changing one makes it an edited scenario for the gate.
 */

/** A JSON map given to the agent, the simulated user and the judge; nested maps are read by dotted paths (`{context.customer.id}`). */
export const ContextSchema = z.record(z.string(), z.unknown())
export type WorldContext = z.infer<typeof ContextSchema>

/**
 * A request made around each attempt, templated like a JSON agent's (`{session}`, `{context.*}`;
 * `${VAR}` is read when the file is loaded). Set-up's JSON answer, when it is a map, is merged into the
 * attempt's context.
 */
export const HttpHookSchema = z.object({
  kind: z.literal('http'),
  url: z.nonEmptyText,
  method: z.enum(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']),
  headers: z.record(z.string(), z.string()),
  body: z.optional(z.unknown()),
})
/** A function exported by a module (TypeScript or JavaScript, relative to the file that names it). */
export const ModuleHookSchema = z.object({
  kind: z.literal('module'),
  module: z.nonEmptyText,
  export: z.nonEmptyText,
})
export const HookSchema = z.discriminatedUnion('kind', [HttpHookSchema, ModuleHookSchema])
export type Hook = z.infer<typeof HookSchema>
export type HttpHook = z.infer<typeof HttpHookSchema>

/** The simulated user's settings for one scenario; absent ones come from convy.yml's `models:`. */
export const SimulatedUserSettingsSchema = z.object({
  model: z.optional(z.nonEmptyText),
  temperature: z.optional(z.number().check(z.gte(0), z.lte(2))),
  maxTokens: z.optional(z.int().check(z.positive())),
})
export type SimulatedUserSettings = z.infer<typeof SimulatedUserSettingsSchema>

const positive = z.optional(z.number().check(z.positive()))
/** What one attempt may take: one answer's time, the whole attempt's time, the agent's tokens, the attempt's dollars. */
export const LimitsSchema = z.object({
  answerMs: positive,
  attemptMs: positive,
  agentTokens: z.optional(z.int().check(z.positive())),
  costUsd: positive,
})
export type Limits = z.infer<typeof LimitsSchema>

/** The world keys of a scenario as convy-ci plays it: absent when the file does not set them. */
export const WorldShape = {
  context: z.optional(ContextSchema),
  setup: z.optional(HookSchema),
  teardown: z.optional(HookSchema),
  simulatedUser: z.optional(SimulatedUserSettingsSchema),
  limits: z.optional(LimitsSchema),
  /** Claims the judge checks after each agent turn; the first that holds ends the attempt, failed (one judge call per turn). */
  stopIf: z.optional(z.array(z.nonEmptyText)),
}
