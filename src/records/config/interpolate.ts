import { FileError, InputErrors, type InputError } from '../../base/shared/errors.ts'
import type { YamlFile } from '../../base/input/yaml-file.ts'
import { secretPartsOf } from '../../base/shared/url-secrets.ts'

/** The variables convy.yml may read: the process environment over the project's .env. */
export type Environment = Readonly<Record<string, string | undefined>>

/** Set by the project on its environment: the names whose value came from .env, for hints. */
export const FROM_DOTENV = Symbol('names read from .env')

/** `NAME=value (from .env)`: where a value came from, for a hint; the caller masks what it writes. */
export function describeVariable(env: Environment, name: string): string {
  const fromDotEnv = (env as { [FROM_DOTENV]?: ReadonlySet<string> })[FROM_DOTENV]?.has(name) ?? false
  return `${name}=${env[name] ?? ''}${fromDotEnv ? ' (from .env)' : ''}`
}

/** Keys whose value is an address: a variable inside it is one part of the address, not syntax. */
const URL_KEYS = new Set(['url', 'endpoint', 'base_url'])

/**
 * A value that starts the address or sits in its host (`${BOT_URL}/chat`, `http://${HOST}:8080`) is
 * the address itself and goes in as it is; past the host it is data, percent-encoded, so a token with
 * `&`, `#` or `/` stays one query value or one path segment.
 */
export function inUrl(before: string, value: string): string {
  return before.indexOf('://') < 0 || inHost(before) ? value : encodeURIComponent(value)
}

/** Whether what follows `before` is in the address's host: after `scheme://`, before any / ? or #. */
function inHost(before: string): boolean {
  const scheme = before.indexOf('://')
  return scheme >= 0 && !/[/?#]/.test(before.slice(scheme + 3))
}

export interface Interpolated<T> {
  value: T
  /**
   * Every value read from the environment: treated as secret, masked wherever text leaves. An address
   * that starts a url, endpoint or base_url gives only its secret-bearing parts (url-secrets.ts).
   */
  readValues: string[]
  /** The names of the variables read, in order: for hints that say where a value came from. */
  readNames: string[]
}

/** `${NAME`, then `}`, `:-default}` or `:?message}`; the default may itself hold `${…}`. */
const START = /\$\{([A-Za-z_][A-Za-z0-9_]*)(\}|:-|:\?)/g

/**
 * Replaces variables in every string under `path` of a YAML file, as a shell does:
 * `${NAME}` must be set; `${NAME:-default}` is the default when NAME is unset or empty;
 * `${NAME:?message}` stops with the message when it is. A variable that is not set is an error
 * naming it and the line that uses it; all such errors are reported together.
 */
export function interpolate(file: YamlFile, path: readonly PropertyKey[], value: unknown, env: Environment): Interpolated<unknown> {
  const readValues: string[] = []
  const readNames: string[] = []
  const problems: InputError[] = []
  const walk = (node: unknown, at: readonly PropertyKey[]): unknown => {
    if (typeof node === 'string') {
      const problem = (message: string) => problems.push(new FileError(file.name, file.lineOf(at), `${at.join('.')} ${message}`))
      const encode = URL_KEYS.has(String(at.at(-1))) ? inUrl : undefined
      return substitute(node, env, { values: readValues, names: readNames }, problem, encode)
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
  return { value: result, readValues, readNames }
}

function substitute(text: string, env: Environment, read: { values: string[]; names: string[] }, problem: (message: string) => void, encode?: (before: string, value: string) => string): string {
  let out = ''
  let from = 0
  const start = new RegExp(START)
  for (let match = start.exec(text); match !== null; match = start.exec(text)) {
    const [whole, name, operator] = match as unknown as [string, string, string]
    out += text.slice(from, match.index)
    let operand = ''
    let end = match.index + whole.length
    if (operator !== '}') {
      const close = closingBrace(text, end)
      if (close === -1) {
        problem(`has \${${name}${operator} without its closing }`)
        return ''
      }
      operand = text.slice(end, close)
      end = close + 1
    }
    const found = env[name]
    if (found !== undefined && found !== '') {
      read.names.push(name)
      // The address itself (the variable starts it): visible but for what can carry a secret.
      const address = !encode ? undefined : out === '' ? found : inHost(out) ? `http://${found}` : undefined
      read.values.push(...(address === undefined ? [found] : secretPartsOf(address)))
      out += encode ? encode(out, found) : found
    } else if (operator === ':-') {
      // Only the default in use is read, as in a shell: an unused one may name unset variables.
      out += substitute(operand, env, read, problem)
    } else if (operator === ':?' && operand.trim() !== '') {
      problem(`needs \${${name}}: ${operand.trim()}`)
    } else {
      problem(`uses \${${name}}, which is not set (set it in the environment or in .env, or write \${${name}:-default})`)
    }
    from = end
    start.lastIndex = end
  }
  return out + text.slice(from)
}

/** The `}` that closes a `${` whose operand starts at `from`, counting the operand's own `${…}`. */
function closingBrace(text: string, from: number): number {
  let depth = 0
  for (let i = from; i < text.length; i++) {
    if (text.startsWith('${', i)) {
      depth++
      i++
    } else if (text[i] === '}') {
      if (depth === 0) return i
      depth--
    }
  }
  return -1
}
