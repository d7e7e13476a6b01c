import type { AgentConfig, HttpAgentConfig } from '../../records/config/config.ts'
import { createFetch, type Fetch } from '../../base/http/fetch.ts'
import { readTlsFiles } from '../../base/http/tls.ts'
import type { ProxyRules } from '../../base/http/proxy.ts'
import { fingerprint } from '../../base/shared/fingerprint.ts'
import type { Agent } from './agent.ts'
import { createJsonHttpAgent } from './protocols/json-http.ts'
import type { ModuleAgentOptions } from './module/module-agent.ts'

/** Turns one agent of convy.yml into something the runner can talk to, with what run.json records of it. */
export interface CreateAgentDeps extends Omit<ModuleAgentOptions, 'buildName'> {
  /**
   * The agent's entry as written in convy.yml, before `${VAR}` interpolation. Agents reached over
   * HTTP are fingerprinted from it, so that no secret feeds a hash written to run.json.
   * Default: the parsed configuration.
   */
  rawConfig?: unknown
  /** The HTTP client of agents reached over HTTP; default: the built-in fetch. An agent with `tls` or `proxy` gets its own. */
  fetch?: Fetch
  /** For the HTTP client an agent with `tls` or `proxy` gets: bytes of a response read at most. */
  maxBodyBytes?: number
  /** For that client too: the environment's proxy rules (HTTPS_PROXY, NO_PROXY, …). */
  proxyRules?: ProxyRules
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
  if (config.protocol === 'echo') {
    return { agent: echoAgent, kind: 'echo', version: null, fingerprint: fingerprint(deps.rawConfig ?? config) }
  }
  if (config.protocol === 'module') {
    const { loadModuleAgent } = await import('./module/module-agent.ts')
    const loaded = await loadModuleAgent(config.module, { ...deps, buildName: name })
    return { agent: loaded.agent, kind: 'module', version: loaded.agent.version ?? null, fingerprint: loaded.fingerprint }
  }
  // Certificates are read here, while the run is prepared: a wrong path stops it before it starts.
  const ownClient = config.tls !== undefined || config.proxy !== undefined
  const tls = config.tls ? readTlsFiles(config.tls, deps.projectDir, `agent "${name}"`) : undefined
  const fetch = ownClient ? createFetch({ tls, proxy: config.proxy, proxyRules: deps.proxyRules, maxBodyBytes: deps.maxBodyBytes }) : deps.fetch
  return { agent: await httpAgent(config, fetch), kind: config.protocol, version: config.version ?? null, fingerprint: fingerprint(deps.rawConfig ?? config) }
}

// Protocols other than JSON are loaded when used: a run starts without the `openai` client and the
// stream readers it does not need (bench/runner.ts measures the start-up).
async function httpAgent(config: HttpAgentConfig, fetch: Fetch | undefined): Promise<Agent> {
  switch (config.protocol) {
    case 'json':
      return createJsonHttpAgent(config, fetch)
    case 'openai-chat':
      return (await import('./protocols/openai-chat.ts')).createOpenAIChatAgent(config, fetch)
    case 'openai-responses':
      return (await import('./protocols/openai-responses.ts')).createOpenAIResponsesAgent(config, fetch)
    case 'ai-sdk':
      return (await import('./protocols/ai-sdk.ts')).createAiSdkAgent(config, fetch)
    case 'a2a':
      return (await import('./protocols/a2a.ts')).createA2aAgent(config, fetch)
    case 'langgraph':
      return (await import('./protocols/langgraph.ts')).createLangGraphAgent(config, fetch)
    case 'sse':
    case 'ndjson':
      return (await import('./protocols/generic-stream.ts')).createStreamAgent(config, fetch)
  }
}

/** Built in: answers with the user's message. Tries the whole pipeline with no agent to run. */
export const echoAgent: Agent = {
  conversation: () => ({ answer: (message) => ({ text: message }) }),
}
