import { FileError } from '../../base/shared/errors.ts'
import type { YamlFile } from '../../base/input/yaml-file.ts'
import { argumentSchema, expandInput, schemaChecker, type JsonSchema } from './tool-input.ts'
import { parseTemplate, placeholdersIn } from './tool-template.ts'
import type { ToolFile } from './load-tools.ts'

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
