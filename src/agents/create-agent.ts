import type { AgentConfig } from '../config/config.ts'
import type { Fetch } from '../http/fetch.ts'
import { fingerprint } from '../shared/fingerprint.ts'
import type { Agent } from './agent.ts'
import { echoAgent } from './echo.ts'
import { createJsonHttpAgent } from './json-http.ts'
import { loadModuleAgent, type ModuleAgentOptions } from './module-agent.ts'
import { createOpenAIChatAgent } from './openai-chat.ts'

/** Turns one agent of convy.yml into something the runner can talk to, with what run.json records of it. */
export interface CreateAgentDeps extends Omit<ModuleAgentOptions, 'buildName'> {
  /**
   * The agent's entry as written in convy.yml, before `${VAR}` interpolation. JSON and openai-chat
   * agents are fingerprinted from it, so that no secret feeds a hash written to run.json.
   * Default: the parsed configuration.
   */
  rawConfig?: unknown
  /** The HTTP client of JSON and openai-chat agents; default: the built-in fetch. */
  fetch?: Fetch
}

export type AgentKind = AgentConfig['protocol']

export interface CreatedAgent {
  agent: Agent
  kind: AgentKind
  /** The configuration's `version`, or the module's `agent.version`; null when neither says. */
  version: string | null
  /** sha256 of the configuration, or of a module's source: resume refuses when it changed. */
  fingerprint: string
}

export async function createAgent(name: string, config: AgentConfig, deps: CreateAgentDeps): Promise<CreatedAgent> {
  switch (config.protocol) {
    case 'echo':
      return { agent: echoAgent, kind: 'echo', version: null, fingerprint: fingerprint(deps.rawConfig ?? config) }
    case 'json':
      return configured(createJsonHttpAgent(config, deps.fetch), config, deps)
    case 'openai-chat':
      return configured(createOpenAIChatAgent(config, deps.fetch), config, deps)
    case 'module': {
      const loaded = await loadModuleAgent(config.module, { ...deps, buildName: name })
      return { agent: loaded.agent, kind: 'module', version: loaded.agent.version ?? null, fingerprint: loaded.fingerprint }
    }
  }
}

function configured(agent: Agent, config: AgentConfig & { protocol: 'json' | 'openai-chat' }, deps: CreateAgentDeps): CreatedAgent {
  return { agent, kind: config.protocol, version: config.version ?? null, fingerprint: fingerprint(deps.rawConfig ?? config) }
}
