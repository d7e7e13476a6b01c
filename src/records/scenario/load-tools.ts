import * as z from '../../base/shared/zod.ts'
import { FileError } from '../../base/shared/errors.ts'
import { didYouMean } from '../../base/input/did-you-mean.ts'
import { issuesToErrors, type YamlFile } from '../../base/input/yaml-file.ts'
import type { Scenario } from './scenario.ts'
import type { EndStateCheck, Tool } from './tools.ts'
import { loadSchemaChecker, argumentSchema, expandInput, schemaChecker, type JsonSchema } from './tool-input.ts'
import { parseTemplate, placeholdersIn } from './tool-template.ts'

/**
 * The tool keys of a scenario file (and convy.yml's named `tools:` sets) as users write them, and
 * their conversion to the scenario's own shape (tools.ts), with every mistake named at its line
 * before anything runs (checkTool, below).
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
  delay_ms: z.optional(z.int().check(z.positive(), z.lte(600_000))),
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
/** A tool's name is what an agent's model calls: MCP's and OpenAI's rule (letters, digits, `_`, `-`, `.`; at most 64). */
const TOOL_NAME = /^[A-Za-z0-9_.-]{1,64}$/
const ToolNameSchema = z.string().check(z.regex(TOOL_NAME, 'a tool name uses letters, digits, "_", "-" and "." (at most 64), as MCP and model APIs require'))
export const ToolSetFileSchema = z.record(ToolNameSchema, ToolFileSchema)

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

/** convy.yml's named tool sets, checked and converted; a scenario includes them by name. */
export type ToolSets = Readonly<Record<string, Readonly<Record<string, Tool>>>>

export function toolOf(file: ToolFile, input: Record<string, unknown>): Tool {
  return {
    ...(file.description === undefined ? {} : { description: file.description }),
    input,
    answers: file.answers ?? [],
    ...(file.sets === undefined ? {} : { sets: file.sets }),
    ...(file.faults === undefined
      ? {}
      : {
          faults: file.faults.map(({ delay_ms, ...fault }) => ({ ...fault, ...(delay_ms === undefined ? {} : { delayMs: delay_ms }) })),
        }),
  }
}

/** Each tool of a map, checked (its line in `file` under `base`) and converted; problems are collected. */
function toolsOfMap(file: YamlFile, base: readonly (string | number)[], map: Readonly<Record<string, ToolFile>>, problems: FileError[]): Record<string, Tool> {
  const tools: Record<string, Tool> = {}
  for (const [name, tool] of Object.entries(map)) {
    const where: Where = { file, path: [...base, name] }
    const checked = checkTool(where, name, tool)
    problems.push(...checked.problems)
    if (checked.input) tools[name] = toolOf(tool, checked.input)
  }
  return tools
}

/** convy.yml's `tools:` section, checked (the validator loaded first when there is one). */
export async function loadToolSets(file: YamlFile, section: Readonly<Record<string, unknown>> | undefined): Promise<ToolSets> {
  if (section === undefined) return {}
  await loadSchemaChecker()
  return parseToolSets(file, section)
}

/**
 * convy.yml's `tools:` section: a map of set names to maps of tools, each checked as a scenario's
 * own. Needs the schema checker loaded (tool-input.ts). Throws every problem, with convy.yml's lines.
 */
export function parseToolSets(file: YamlFile, section: Readonly<Record<string, unknown>> | undefined): ToolSets {
  if (section === undefined) return {}
  const parsed = z.record(z.string(), ToolSetFileSchema).safeParse(section, z.PARSE_FEW)
  if (!parsed.success) {
    const [first] = issuesToErrors(file, parsed.error.issues, ['tools'], (p) => (p.length === 3 ? Object.keys(ToolFileSchema.shape) : []))
    throw first!
  }
  const problems: FileError[] = []
  const sets = Object.fromEntries(Object.entries(parsed.data).map(([set, map]) => [set, toolsOfMap(file, ['tools', set], map, problems)]))
  if (problems.length) throw problems[0]!
  return sets
}

function endStateOf(entry: z.infer<typeof EndStateFileSchema>): EndStateCheck {
  if ('state' in entry) return { kind: 'state', path: entry.state, equals: entry.equals }
  if ('never' in entry) return { kind: 'never', tool: entry.never }
  return { kind: 'called', tool: entry.tool_called, ...(entry.args === undefined ? {} : { args: entry.args }), ...(entry.times === undefined ? {} : { times: entry.times }) }
}

/**
 * The scenario's tools (named sets expanded from `toolSets`) and end-state checks, present only when
 * the file sets them, and the problems found: an unknown set, a tool in two sets, an end-state check
 * about a tool the scenario does not define or a state path no tool sets.
 */
export function toolsOf(file: YamlFile, raw: ToolsFile, toolSets: ToolSets): { value: Pick<Scenario, 'tools' | 'endState'>; problems: FileError[] } {
  const problems: FileError[] = []
  let tools: Record<string, Tool> | undefined
  if (typeof raw.tools === 'string' || Array.isArray(raw.tools)) {
    tools = {}
    const names = [raw.tools].flat()
    for (const [i, name] of names.entries()) {
      const path = typeof raw.tools === 'string' ? ['tools'] : ['tools', i]
      const set = toolSets[name]
      if (set === undefined) {
        const known = Object.keys(toolSets)
        const hint = didYouMean(name, known)
        const list = known.length ? `convy.yml's tool sets: ${known.join(', ')}` : 'convy.yml has no `tools:` section'
        problems.push(new FileError(file.name, file.lineOf(path), `tools: no tool set "${name}"${hint ? ` — did you mean "${hint}"?` : ''} (${list})`))
        continue
      }
      for (const [tool, definition] of Object.entries(set)) {
        if (tool in tools) problems.push(new FileError(file.name, file.lineOf(path), `tools: "${tool}" is in two of the sets named here; a tool name must be unique in a scenario`))
        tools[tool] = definition
      }
    }
  } else if (raw.tools !== undefined) {
    tools = toolsOfMap(file, ['tools'], raw.tools, problems)
  }
  const endState = raw.end_state?.map(endStateOf)
  if (endState) problems.push(...endStateProblems(file, endState, raw.tools === undefined ? undefined : (tools ?? {})))
  return {
    value: { ...(tools === undefined ? {} : { tools }), ...(endState === undefined ? {} : { endState }) },
    problems,
  }
}

function endStateProblems(file: YamlFile, checks: readonly EndStateCheck[], tools: Readonly<Record<string, Tool>> | undefined): FileError[] {
  const at = (i: number, key: string, detail: string) => new FileError(file.name, file.lineOf(['end_state', i, key]), `end_state.${i}: ${detail}`)
  if (tools === undefined) return [new FileError(file.name, file.lineOf(['end_state']), 'end_state checks the world the scenario\'s tools change, and this scenario has no `tools:`')]
  const names = Object.keys(tools)
  const patterns = Object.values(tools).flatMap((tool) => setPatterns(tool.sets ?? {}))
  return checks.flatMap((check, i): FileError[] => {
    if (check.kind === 'state') {
      const path = check.path.split('.')
      if (patterns.some((pattern) => overlaps(pattern, path))) return []
      const written = Object.values(tools).flatMap((tool) => Object.keys(tool.sets ?? {}))
      return [at(i, 'state', `no tool sets \`${check.path}\`, so it could never change (${written.length ? `the tools set: ${written.join(', ')}` : 'no tool here has `sets:`'})`)]
    }
    if (names.includes(check.tool)) return []
    const hint = didYouMean(check.tool, names)
    const key = check.kind === 'never' ? 'never' : 'tool_called'
    const why = check.kind === 'never' ? '; a tool the agent is not given cannot be called: define it to check that it is not' : ''
    return [at(i, key, `no tool "${check.tool}" in this scenario${hint ? ` — did you mean "${hint}"?` : ''} (its tools: ${names.join(', ') || 'none'})${why}`)]
  })
}

/** A `sets:` pattern (null: any key) and a path overlap when one is a prefix of the other. */
function overlaps(pattern: readonly (string | null)[], path: readonly string[]): boolean {
  const n = Math.min(pattern.length, path.length)
  for (let i = 0; i < n; i++) if (pattern[i] !== null && pattern[i] !== path[i]) return false
  return true
}

/**
 * What can be wrong with one served tool as written, each at its line: an input that is not a
 * schema, an answer whose `when` the tool's own input would refuse, an answer that can never be
 * given, a placeholder naming no argument, a fault that does nothing.
 */
export interface Where {
  file: YamlFile
  /** The tool's path in the file: ['tools', name] in a scenario, ['tools', set, name] in convy.yml. */
  path: readonly (string | number)[]
}

export function checkTool(where: Where, name: string, tool: ToolFile): { input: JsonSchema | null; problems: FileError[] } {
  const problems: FileError[] = []
  const at = (path: readonly (string | number)[], detail: string) =>
    new FileError(where.file.name, where.file.lineOf([...where.path, ...path]), `${[...where.path, ...path].join('.')}: ${detail}`)
  const expanded = expandInput(tool.input ?? {})
  if ('problem' in expanded) return { input: null, problems: [at(expanded.key === null ? ['input'] : ['input', expanded.key], expanded.problem)] }
  const input = expanded.schema
  try {
    schemaChecker().compile(input)
  } catch (error) {
    return { input: null, problems: [at(['input'], `is not a JSON Schema the tool can be served with: ${(error as Error).message}`)] }
  }
  const properties = input['properties'] !== null && typeof input['properties'] === 'object' ? Object.keys(input['properties']) : []
  const argumentsListed = properties.length ? `its arguments: ${properties.join(', ')}` : 'it takes none'
  const strict = properties.length > 0 || input['additionalProperties'] === false

  for (const [i, answer] of (tool.answers ?? []).entries()) {
    if (answer.result === undefined && answer.error === undefined) problems.push(at(['answers', i], 'an answer gives `result:` (what the tool returns) or `error:` (a tool error)'))
    if (answer.result !== undefined && answer.error !== undefined) problems.push(at(['answers', i], 'an answer gives `result:` or `error:`, not both'))
    if (answer.when === undefined && i < tool.answers!.length - 1) {
      problems.push(at(['answers', i + 1], `is never given: answer ${i} has no \`when:\`, so it answers every call; the default answer goes last`))
    }
    for (const [key, value] of Object.entries(answer.when ?? {})) {
      const schema = argumentSchema(input, key)
      if (schema === undefined) {
        if (strict) problems.push(at(['answers', i, 'when', key], `"${key}" is not an argument of ${name} (${argumentsListed}), so this answer would never match`))
        continue
      }
      // A value from the context is known only when the attempt runs.
      if (typeof value === 'string' && parseTemplate(value).some((part) => typeof part !== 'string')) continue
      const refused = schemaChecker().compile(schema)(value)
      if (refused !== null) problems.push(at(['answers', i, 'when', key], `${JSON.stringify(value)} does not match ${name}'s input schema for "${key}" (${refused.replace(/^data/, key)}), so no call could match this answer`))
    }
    problems.push(...placeholderProblems(answer.result, ['answers', i, 'result']), ...placeholderProblems(answer.error, ['answers', i, 'error']))
  }
  for (const key of Object.keys(tool.sets ?? {})) problems.push(...placeholderProblems(key, ['sets', key]), ...placeholderProblems(tool.sets![key], ['sets', key]))
  for (const [i, fault] of (tool.faults ?? []).entries()) {
    if (fault.error === undefined && fault.delay_ms === undefined && fault.malformed === undefined) {
      problems.push(at(['faults', i], 'a fault does something: `error:` (a tool error), `delay_ms:` (a late answer) or `malformed: true` (an answer cut short)'))
    }
    if (fault.call !== undefined && fault.rate !== undefined) problems.push(at(['faults', i], '`call:` (the Nth call) and `rate:` (a share of the calls) do not go together: write two faults'))
    if (fault.error !== undefined && fault.malformed !== undefined) problems.push(at(['faults', i], '`error:` and `malformed:` do not go together: an error has no answer to cut short'))
  }
  return { input, problems }

  function placeholderProblems(value: unknown, path: readonly (string | number)[]): FileError[] {
    return placeholdersIn(value).flatMap((placeholder) => {
      if (placeholder.root === 'context' || placeholder.root === 'state') return []
      if (!strict || properties.includes(placeholder.root)) return []
      return [at(path, `{${placeholder.root}} names no argument of ${name} (${argumentsListed}); a placeholder is an argument, {context.KEY} or {state.PATH}`)]
    })
  }
}

/** The paths a tool's `sets:` writes, with null for a segment an argument fills (any key). */
export function setPatterns(sets: Readonly<Record<string, unknown>>): (string | null)[][] {
  return Object.keys(sets).map((key) => {
    const segments: (string | null)[] = []
    let current = ''
    let depth = 0
    for (const char of key) {
      if (char === '{') depth++
      if (char === '}') depth--
      if (char === '.' && depth === 0) {
        segments.push(current.includes('{') ? null : current)
        current = ''
      } else current += char
    }
    segments.push(current.includes('{') ? null : current)
    return segments
  })
}
