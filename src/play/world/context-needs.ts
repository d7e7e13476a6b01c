import { lookupPath } from '../agents/dotted-path.ts'
import { contextKeys } from '../agents/context-values.ts'
import type { Scenario } from '../../records/scenario/scenario.ts'
import type { Hook } from '../../records/scenario/world.ts'

/**
 * The context keys an attempt's templates and checks name (`{context.order_id}`), each with where it
 * is written: checked before the run against the context that is known then, and after each set-up
 * against the context it made.
 */
export interface ContextNeed {
  /** The dotted key after `context.`: `order_id`, `customer.id`. */
  key: string
  /** Where it is written: a file and a path in it, for the line. */
  file: 'scenario' | 'config'
  path: readonly (string | number)[]
  /** Set-up's own templates are filled before it runs: its answer cannot give what they need. */
  beforeSetup: boolean
}

/** `{context.KEY}` keys named in every string under a value, with the path of each string. */
export function namedKeys(value: unknown, path: readonly (string | number)[] = []): { key: string; path: (string | number)[] }[] {
  if (typeof value === 'string') return contextKeys(value).map((key) => ({ key, path: [...path] }))
  if (Array.isArray(value)) return value.flatMap((item, i) => namedKeys(item, [...path, i]))
  if (value !== null && typeof value === 'object') return Object.entries(value).flatMap(([key, item]) => namedKeys(item, [...path, key]))
  return []
}

function hookKeys(hook: Hook | undefined): { key: string; path: (string | number)[] }[] {
  if (hook?.kind !== 'http') return []
  return namedKeys({ url: hook.url, headers: hook.headers, body: hook.body })
}

/**
 * What a scenario's attempts need: its checks, its own set-up and tear-down (in the scenario file),
 * the agent's (in convy.yml, under `configPath`) and the agent's request templates.
 */
export function contextNeeds(scenario: Scenario, agent: { setup?: Hook | undefined; teardown?: Hook | undefined; templates: unknown; configPath: readonly (string | number)[] }): ContextNeed[] {
  const needs: ContextNeed[] = []
  const add = (file: ContextNeed['file'], prefix: readonly (string | number)[], found: { key: string; path: (string | number)[] }[], beforeSetup = false) => {
    // The address of tools convy-ci serves is put in the context as each attempt starts.
    for (const { key, path } of found) if (key.split('.')[0] !== 'tools_url') needs.push({ key, file, path: [...prefix, ...path], beforeSetup })
  }
  scenario.checks.forEach((check, i) => {
    if (typeof check.value === 'string') add('scenario', ['checks', i, check.kind], namedKeys(check.value))
  })
  if (scenario.setup) add('scenario', ['setup'], hookKeys(scenario.setup), true)
  else add('config', [...agent.configPath, 'setup'], hookKeys(agent.setup), true)
  if (scenario.teardown) add('scenario', ['teardown'], hookKeys(scenario.teardown))
  else add('config', [...agent.configPath, 'teardown'], hookKeys(agent.teardown))
  add('config', agent.configPath, namedKeys(agent.templates))
  return needs
}

export function hasKey(context: Readonly<Record<string, unknown>>, key: string): boolean {
  return lookupPath(context, key).found
}
