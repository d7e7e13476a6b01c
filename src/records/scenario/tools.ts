import * as z from '../../base/shared/zod.ts'

/**
 * Tools a scenario controls (docs/tools.md): served to the agent over MCP for each attempt, answered
 * from the scenario's own table, failing on purpose where it says so, and recording every call. Part
 * of the scenario's identity (scenario.ts) and of the model cache's key.
 */

/** One answer: the first whose `when` the call's arguments match is given; one without `when` matches any call. */
export const ToolAnswerSchema = z.object({
  when: z.optional(z.record(z.string(), z.unknown())),
  /** What the tool gives back (JSON); strings may hold `{context.*}` and the call's arguments (`{order_id}`). */
  result: z.optional(z.unknown()),
  /** A tool error instead of a result (`isError: true`). */
  error: z.optional(z.nonEmptyText),
})
export type ToolAnswer = z.infer<typeof ToolAnswerSchema>

/** A failure on purpose: on the Nth call, or at a rate drawn from the attempt's recorded seed. */
export const ToolFaultSchema = z.object({
  call: z.optional(z.int().check(z.positive())),
  rate: z.optional(z.number().check(z.gt(0), z.lte(1))),
  error: z.optional(z.nonEmptyText),
  delayMs: z.optional(z.int().check(z.positive())),
  malformed: z.optional(z.literal(true)),
})
export type ToolFault = z.infer<typeof ToolFaultSchema>

export const ToolSchema = z.object({
  description: z.optional(z.string()),
  /** The arguments as a JSON Schema (an object schema); the short form `{order_id: string}` is expanded when loaded. */
  input: z.record(z.string(), z.unknown()),
  answers: z.array(ToolAnswerSchema),
  /** What a call changes in the attempt's world state: a dotted path (may name an argument, `refunds.{order_id}`) → the value it takes. */
  sets: z.optional(z.record(z.string(), z.unknown())),
  faults: z.optional(z.array(ToolFaultSchema)),
})
export type Tool = z.infer<typeof ToolSchema>

/** Decided by convy-ci over the world after the last turn, with no model. */
export const EndStateCheckSchema = z.discriminatedUnion('kind', [
  /** The world state at a dotted path equals a value. */
  z.object({ kind: z.literal('state'), path: z.nonEmptyText, equals: z.unknown() }),
  /** A served tool was called (exactly `times` times when given) with at least these arguments. */
  z.object({ kind: z.literal('called'), tool: z.nonEmptyText, args: z.optional(z.record(z.string(), z.unknown())), times: z.optional(z.int().check(z.nonnegative())) }),
  /** A served tool was never called. */
  z.object({ kind: z.literal('never'), tool: z.nonEmptyText }),
])
export type EndStateCheck = z.infer<typeof EndStateCheckSchema>

export const ToolsShape = {
  /** By name; named sets from convy.yml are expanded into this map, so the scenario's copy in run.json holds them. */
  tools: z.optional(z.record(z.string(), ToolSchema)),
  endState: z.optional(z.array(EndStateCheckSchema)),
}

/**
 * An end-state check's value as one line: what its result records (its kind is the check's:
 * `state`, `called`, `never`, none of them a kind of `checks:`), and the key it is counted under.
 */
export function endStateText(check: EndStateCheck): string {
  switch (check.kind) {
    case 'state':
      return `${check.path} = ${JSON.stringify(check.equals) ?? 'null'}`
    case 'called':
      return `${check.tool}${check.args === undefined ? '' : ` ${JSON.stringify(check.args)}`}${check.times === undefined ? '' : ` × ${check.times}`}`
    case 'never':
      return check.tool
  }
}
