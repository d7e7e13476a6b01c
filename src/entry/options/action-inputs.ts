import { InputError, InputErrors } from '../../base/shared/errors.ts'
import { actionOptions, type ActionValues } from './table.ts'

/** The action's input names, in action.yml's order. */
export const INPUT_NAMES: readonly string[] = actionOptions().map(([, o]) => o.action!.input)

/**
 * The action's inputs, read by the option table and checked in one pass: every wrong input is
 * reported at once, by the name the workflow gives it and with what was given. An empty input is an
 * absent one (GitHub passes '' for inputs that are not set and have no default).
 */
export function readActionInputs(getInput: (name: string) => string): ActionValues {
  const values: Record<string, unknown> = {}
  const problems: InputError[] = []
  for (const [id, o] of actionOptions()) {
    const action = o.action!
    const text = getInput(action.input).trim()
    if (text === '') {
      if (action.required) problems.push(new InputError(`input ${action.input} is required: ${action.required}`))
      values[id] = action.default
      continue
    }
    const parsed = o.kind.parse(text)
    if (parsed.ok) values[id] = parsed.value
    else problems.push(new InputError(`input ${action.input} "${text}": ${parsed.expected}`))
  }
  if (problems.length) throw new InputErrors(problems)
  return values as ActionValues
}
