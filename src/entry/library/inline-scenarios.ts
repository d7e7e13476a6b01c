import { InputError, InputErrors } from '../../base/shared/errors.ts'
import { objectFile } from '../../base/input/yaml-file.ts'
import { parseScenario } from '../../records/scenario/load-scenarios.ts'
import { loadPatterns } from '../../records/scenario/pattern.ts'
import { loadSchemaChecker } from '../../records/scenario/tool-input.ts'
import type { Scenario } from '../../records/scenario/scenario.ts'

/**
 * Scenarios written in code, in the YAML file's shape (`max_turns`, `checks: [{ contains: … }]`),
 * checked by the same rules as a file. Errors name each by its place in `scenarios` and its id.
 */
export async function parseInlineScenarios(inputs: readonly { index: number; input: unknown }[]): Promise<Scenario[]> {
  // Their regex: checks are compiled as they are read, as a file's are.
  if (inputs.length > 0) await loadPatterns()
  if (inputs.some(({ input }) => typeof input === 'object' && input !== null && 'tools' in input)) await loadSchemaChecker()
  const problems: InputError[] = []
  const scenarios: Scenario[] = []
  const seen = new Map<string, string>()
  for (const { index, input } of inputs) {
    const given = typeof input === 'object' && input !== null ? (input as Readonly<Record<string, unknown>>)['id'] : undefined
    const id = typeof given === 'string' ? given : undefined
    const name = `scenarios[${index}]${id === undefined ? '' : ` (${id})`}`
    try {
      if (id === undefined) throw new InputError(`${name}: a scenario written in code needs an \`id\` (text: letters, digits, ".", "_" and "-")`)
      const scenario = parseScenario(objectFile(name, input), id)
      const earlier = seen.get(scenario.id)
      if (earlier !== undefined) throw new InputError(`${name}: scenario id "${scenario.id}" is already used by ${earlier}; ids must be unique`)
      seen.set(scenario.id, name)
      scenarios.push({ ...scenario, file: name })
    } catch (error) {
      if (error instanceof InputErrors) problems.push(...error.problems)
      else if (error instanceof InputError) problems.push(error)
      else throw error
    }
  }
  if (problems.length) throw problems.length === 1 ? problems[0]! : new InputErrors(problems)
  return scenarios
}
