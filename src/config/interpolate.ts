import { FileError, InputErrors, type InputError } from '../shared/errors.ts'
import type { YamlFile } from '../input/yaml-file.ts'

/** The variables convy.yml may read: the process environment over the project's .env. */
export type Environment = Readonly<Record<string, string | undefined>>

const VARIABLE = /\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g

export interface Interpolated<T> {
  value: T
  /** Every value read from the environment: treated as secret, masked wherever text leaves. */
  readValues: string[]
}

/**
 * Replaces `${NAME}` in every string under `path` of a YAML file. A variable that is not set is an
 * error naming it and the line that uses it; all such errors are reported together.
 */
export function interpolate(file: YamlFile, path: readonly PropertyKey[], value: unknown, env: Environment): Interpolated<unknown> {
  const readValues: string[] = []
  const problems: InputError[] = []
  const walk = (node: unknown, at: readonly PropertyKey[]): unknown => {
    if (typeof node === 'string') {
      return node.replace(VARIABLE, (_match, name: string) => {
        const found = env[name]
        if (found === undefined || found === '') {
          problems.push(new FileError(file.name, file.lineOf(at), `${at.join('.')} uses \${${name}}, which is not set (set it in the environment or in .env)`))
          return ''
        }
        readValues.push(found)
        return found
      })
    }
    if (Array.isArray(node)) return node.map((item, i) => walk(item, [...at, i]))
    if (node && typeof node === 'object') {
      return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, walk(v, [...at, k])]))
    }
    return node
  }
  const result = walk(value, path)
  if (problems.length === 1) throw problems[0]!
  if (problems.length > 1) throw new InputErrors(problems)
  return { value: result, readValues }
}
