import * as z from '../../base/shared/zod.ts'
import type { Scenario } from './scenario.ts'
import type { EndStateCheck, Tool } from './tools.ts'

/**
 * The tool keys of a scenario file (and convy.yml's named `tools:` sets) as users write them, and
 * their conversion to the scenario's own shape (tools.ts).
 */
const ToolAnswerFileSchema = z.strictObject({
  when: z.optional(z.record(z.string(), z.unknown())),
  result: z.optional(z.unknown()),
  error: z.optional(z.nonEmptyText),
})
const ToolFaultFileSchema = z.strictObject({
  call: z.optional(z.int().check(z.positive())),
  rate: z.optional(z.number().check(z.gt(0), z.lte(1))),
  error: z.optional(z.nonEmptyText),
  delay_ms: z.optional(z.int().check(z.positive())),
  malformed: z.optional(z.literal(true)),
})
export const ToolFileSchema = z.strictObject({
  description: z.optional(z.string()),
  input: z.optional(z.record(z.string(), z.unknown())),
  answers: z.optional(z.array(ToolAnswerFileSchema).check(z.minLength(1))),
  sets: z.optional(z.record(z.string(), z.unknown())),
  faults: z.optional(z.array(ToolFaultFileSchema).check(z.minLength(1))),
})
export type ToolFile = z.infer<typeof ToolFileSchema>
export const ToolSetFileSchema = z.record(z.string(), ToolFileSchema)

const EndStateFileSchema = z.union([
  z.strictObject({ state: z.nonEmptyText, equals: z.unknown() }),
  z.strictObject({ tool_called: z.nonEmptyText, args: z.optional(z.record(z.string(), z.unknown())), times: z.optional(z.int().check(z.nonnegative())) }),
  z.strictObject({ never: z.nonEmptyText }),
])

export const ToolsFileShape = {
  /** A map of tools, the name of a set in convy.yml's `tools:`, or a list of such names. */
  tools: z.optional(z.union([z.nonEmptyText, z.array(z.nonEmptyText).check(z.minLength(1)), ToolSetFileSchema])),
  end_state: z.optional(z.array(EndStateFileSchema).check(z.minLength(1))),
}
type ToolsFile = { [K in keyof typeof ToolsFileShape]?: z.infer<(typeof ToolsFileShape)[K]> }

export function toolOf(file: ToolFile): Tool {
  return {
    ...(file.description === undefined ? {} : { description: file.description }),
    input: file.input ?? { type: 'object', properties: {} },
    answers: file.answers ?? [],
    ...(file.sets === undefined ? {} : { sets: file.sets }),
    ...(file.faults === undefined
      ? {}
      : {
          faults: file.faults.map(({ delay_ms, ...fault }) => ({ ...fault, ...(delay_ms === undefined ? {} : { delayMs: delay_ms }) })),
        }),
  }
}

function endStateOf(entry: z.infer<typeof EndStateFileSchema>): EndStateCheck {
  if ('state' in entry) return { kind: 'state', path: entry.state, equals: entry.equals }
  if ('never' in entry) return { kind: 'never', tool: entry.never }
  return { kind: 'called', tool: entry.tool_called, ...(entry.args === undefined ? {} : { args: entry.args }), ...(entry.times === undefined ? {} : { times: entry.times }) }
}

/** The scenario's tools (named sets expanded from `toolSets`) and end-state checks, present only when the file sets them. */
export function toolsOf(raw: ToolsFile, toolSets: Readonly<Record<string, Record<string, ToolFile>>>): Pick<Scenario, 'tools' | 'endState'> {
  let tools: Record<string, Tool> | undefined
  if (raw.tools !== undefined) {
    const files = typeof raw.tools === 'string' || Array.isArray(raw.tools) ? [raw.tools].flat().map((name) => toolSets[name] ?? {}) : [raw.tools]
    tools = Object.fromEntries(files.flatMap((set) => Object.entries(set).map(([name, file]) => [name, toolOf(file)])))
  }
  return {
    ...(tools === undefined ? {} : { tools }),
    ...(raw.end_state === undefined ? {} : { endState: raw.end_state.map(endStateOf) }),
  }
}
