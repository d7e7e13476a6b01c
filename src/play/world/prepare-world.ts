import type { Fetch } from '../../base/http/fetch-type.ts'
import { objectFile, type YamlFile } from '../../base/input/yaml-file.ts'
import { FileError, InputError, InputErrors } from '../../base/shared/errors.ts'
import { interpolate, type Environment } from '../../records/config/interpolate.ts'
import type { Scenario } from '../../records/scenario/scenario.ts'
import { fingerprint } from '../../base/shared/fingerprint.ts'
import { attemptWorld, type AgentWorld, type AttemptWorld, type PlacedHook } from './attempt-world.ts'
import { contextNeeds, hasKey, type ContextNeed } from './context-needs.ts'
import { createHookRunner, loadHookFunctions, type HookRunner } from './hooks.ts'

/** The world of a whole run: each scenario's, ready to play, and what runs its set-ups and tear-downs. */
export interface RunWorld {
  /** The world an attempt of the scenario starts in: ${VAR}s read, over the agent's. */
  of(scenario: Scenario): AttemptWorld
  /** The context keys the scenario's attempts need, checked after each set-up. */
  needs(scenario: Scenario): readonly ContextNeed[]
  hooks: HookRunner
  /** Values the scenarios' `${VAR}`s read: secrets, for the run's mask. */
  secrets: string[]
  /** Of the set-up and tear-down modules' code, null when there is none: part of the agent's fingerprint (worldFingerprint). */
  modules: string | null
}

export interface WorldOptions {
  env: Environment
  projectDir: string
  canStripTypes: boolean
  /** The HTTP client of set-up and tear-down requests: the agent's (its proxies). */
  fetch: Fetch
  agent: {
    world: AgentWorld
    /** The agent's request templates as convy.yml has them (url, headers, body), for their `{context.*}`. */
    templates: unknown
    /** Dollars per million of its tokens, when priced: `cost_usd` needs it. */
    price: readonly [number, number] | null
    /** convy.yml, and the agent's path in it (`agents.support_bot`), for lines in messages. */
    config: YamlFile
    configPath: readonly string[]
  }
  /** The scenario files by scenario id, for lines in messages; a resume has none, and names the file alone. */
  files?: ReadonlyMap<string, YamlFile>
}

/**
 * Reads the `${VAR}`s of each scenario's context, set-up and tear-down (the scenario keeps them as
 * written, so its identity does not hold a secret), checks before anything runs that every
 * `{context.KEY}` has a context to come from and that `cost_usd` has a price, and loads the module
 * set-ups. Every problem is an InputError with file:line (exit 2), all of them at once.
 */
export async function prepareWorld(scenarios: readonly Scenario[], options: WorldOptions): Promise<RunWorld> {
  const { agent } = options
  const problems: InputError[] = []
  const secrets: string[] = []
  const resolved = new Map<string, AttemptWorld>()
  const needs = new Map<string, ContextNeed[]>()
  const agentFrom = `${agent.config.name} (${agent.configPath.join('.')})`
  const fileOf = (scenario: Scenario) => options.files?.get(scenario.id) ?? objectFile(scenario.file, null)
  for (const scenario of scenarios) {
    const file = fileOf(scenario)
    let played = scenario
    try {
      played = withVariables(scenario, file, options.env, secrets)
    } catch (error) {
      if (error instanceof InputErrors) problems.push(...error.problems)
      else if (error instanceof InputError) problems.push(error)
      else throw error
      continue
    }
    const world = attemptWorld(played, agent.world, agentFrom)
    resolved.set(scenario.id, world)
    const all = contextNeeds(played, { setup: agent.world.setup, teardown: agent.world.teardown, templates: agent.templates, configPath: agent.configPath })
    const later: ContextNeed[] = []
    for (const need of all) {
      if (hasKey(world.context, need.key)) continue
      if (world.setup && !need.beforeSetup) {
        later.push(need)
        continue
      }
      const where = need.file === 'scenario' ? file : agent.config
      const why = need.beforeSetup ? 'set-up fills it in before it runs, so only the context (convy.yml or the scenario) can give it' : 'no context gives it (convy.yml or the scenario), and no set-up is configured to add it'
      problems.push(new FileError(where.name, where.lineOf(need.path), `${need.path.join('.')} uses {context.${need.key}}${need.file === 'config' ? ` (scenario ${scenario.id})` : ''}, but ${why}`))
    }
    needs.set(scenario.id, later)
    if (world.limits.costUsd !== undefined && agent.price === null) {
      const own = scenario.limits?.costUsd !== undefined
      const where = own ? file : agent.config
      problems.push(new FileError(where.name, where.lineOf(own ? ['limits', 'cost_usd'] : [...agent.configPath, 'limits', 'cost_usd']), `limits.cost_usd is the agent's cost at its \`price\`, and the agent has none: add \`price: [input, output]\` (dollars per million tokens) to it in convy.yml`))
    }
  }
  if (problems.length) throw problems.length === 1 ? problems[0]! : new InputErrors(problems)
  const hooks = [...resolved.values()].flatMap((world) => [world.setup, world.teardown]).filter((hook): hook is PlacedHook => hook !== undefined)
  const { functions, fingerprints } = await loadHookFunctions(hooks, options)
  return {
    modules: fingerprints.size === 0 ? null : fingerprint([...fingerprints].sort(([a], [b]) => (a < b ? -1 : 1))),
    of: (scenario) => resolved.get(scenario.id) ?? attemptWorld(scenario, agent.world, agentFrom),
    needs: (scenario) => needs.get(scenario.id) ?? [],
    hooks: createHookRunner(options.fetch, functions),
    secrets,
  }
}

/** The scenario with the `${VAR}`s of its context, set-up and tear-down read from the environment. */
function withVariables(scenario: Scenario, file: YamlFile, env: Environment, secrets: string[]): Scenario {
  const out: Scenario = { ...scenario }
  for (const key of ['context', 'setup', 'teardown'] as const) {
    if (scenario[key] === undefined) continue
    const { value, readValues } = interpolate(file, [key], scenario[key], env)
    secrets.push(...readValues)
    ;(out as Record<string, unknown>)[key] = value
  }
  return out
}

/** A world made of the scenario alone: its own context and limits, HTTP set-ups through the built-in fetch (chat, code that plays one attempt). */
export function scenarioWorld(): RunWorld {
  return { of: (scenario) => attemptWorld(scenario), needs: () => [], hooks: createHookRunner(fetch, new Map()), secrets: [], modules: null }
}
