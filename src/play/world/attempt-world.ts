import type { AgentWorldConfig } from '../../records/config/config.ts'
import { hookOf, limitsOf } from '../../records/scenario/load-world.ts'
import type { Scenario } from '../../records/scenario/scenario.ts'
import type { Hook, Limits } from '../../records/scenario/world.ts'

/**
 * The world of one agent from convy.yml (docs/configuration.md): what every scenario played against
 * it starts from. `base` is the folder its module set-ups are relative to: the project's.
 */
export interface AgentWorld {
  context?: Readonly<Record<string, unknown>>
  setup?: Hook
  teardown?: Hook
  limits?: Limits
}

/** A hook with the folder its module path is relative to (the file that names it). */
export interface PlacedHook {
  hook: Hook
  /** Relative to the project: `.` for convy.yml, the scenario file's folder for a scenario's own. */
  base: string
  /** Where it was written, for messages: `scenarios/refund.yml` or `convy.yml (agent support_bot)`. */
  from: string
}

/** What one attempt of a scenario is played in, before its set-up adds to the context. */
export interface AttemptWorld {
  context: Record<string, unknown>
  setup?: PlacedHook
  teardown?: PlacedHook
  limits: Limits
}

export function agentWorldOf(config: AgentWorldConfig): AgentWorld {
  return {
    ...(config.context === undefined ? {} : { context: config.context }),
    ...(config.setup === undefined ? {} : { setup: hookOf(config.setup, 'setup') }),
    ...(config.teardown === undefined ? {} : { teardown: hookOf(config.teardown, 'teardown') }),
    ...(config.limits === undefined ? {} : { limits: limitsOf(config.limits) }),
  }
}

/**
 * The scenario over its agent's world: the context key by key, the limits key by key, and a
 * scenario's own set-up or tear-down in place of the agent's. `agentFrom` names convy.yml's agent.
 */
export function attemptWorld(scenario: Scenario, agent: AgentWorld = {}, agentFrom = 'convy.yml'): AttemptWorld {
  const scenarioBase = scenario.file.includes('/') ? scenario.file.slice(0, scenario.file.lastIndexOf('/')) : '.'
  const placed = (own: Hook | undefined, agents: Hook | undefined): PlacedHook | undefined =>
    own ? { hook: own, base: scenarioBase, from: scenario.file } : agents ? { hook: agents, base: '.', from: agentFrom } : undefined
  const setup = placed(scenario.setup, agent.setup)
  const teardown = placed(scenario.teardown, agent.teardown)
  return {
    context: { ...agent.context, ...scenario.context },
    ...(setup ? { setup } : {}),
    ...(teardown ? { teardown } : {}),
    limits: { ...agent.limits, ...scenario.limits },
  }
}
