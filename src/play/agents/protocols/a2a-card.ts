import type { A2aAgentConfig } from '../../../records/config/config.ts'
import type { Fetch } from '../../../base/http/fetch.ts'
import { excerpt, fetchJson } from '../fetch-json.ts'
import type { A2aVersion } from './a2a-wire.ts'

/**
 * Where to send JSON-RPC, and in which dialect, from the agent card. A v1.0 card lists
 * `supportedInterfaces` with a binding and a version each; a v0.3 card has one `url` with its
 * `preferredTransport` and `protocolVersion`. The card is asked for with `A2A-Version: 1.0`: without
 * it, a server that speaks both may describe itself as v0.3 only.
 */
export interface A2aEndpoint {
  url: string
  version: A2aVersion
}

const CARD_PATH = '.well-known/agent-card.json'

export async function findA2aEndpoint(config: A2aAgentConfig, fetch: Fetch | undefined, signal: AbortSignal): Promise<A2aEndpoint> {
  if (config.endpoint !== undefined && config.a2a_version !== undefined) return { url: config.endpoint, version: config.a2a_version }
  const cardUrl = config.url.endsWith('.json') ? config.url : `${config.url.replace(/\/+$/, '')}/${CARD_PATH}`
  const card = await fetchJson(cardUrl, { method: 'GET', headers: { 'A2A-Version': '1.0', ...config.headers }, signal, fetch })
  const offered = jsonRpcInterfaces(card)
  const wanted = config.a2a_version
  const chosen = (wanted ? offered.filter((i) => i.version === wanted) : [...offered].sort((a, b) => (a.version === b.version ? 0 : a.version === '1.0' ? -1 : 1)))[0]
  if (!chosen) {
    const listed = offered.length === 0 ? 'none' : offered.map((i) => `${i.version} at ${i.url}`).join(', ')
    throw new Error(`the agent card at ${cardUrl} offers no JSON-RPC interface${wanted ? ` for A2A ${wanted}` : ''} (JSON-RPC interfaces: ${listed}). The card: ${excerpt(JSON.stringify(card))}`)
  }
  return { url: config.endpoint ?? chosen.url, version: chosen.version }
}

function jsonRpcInterfaces(card: unknown): A2aEndpoint[] {
  const c = (card ?? {}) as { url?: unknown; preferredTransport?: unknown; protocolVersion?: unknown; supportedInterfaces?: unknown; additionalInterfaces?: unknown }
  const found: A2aEndpoint[] = []
  for (const i of Array.isArray(c.supportedInterfaces) ? (c.supportedInterfaces as Record<string, unknown>[]) : []) {
    const version = dialect(i['protocolVersion'])
    if (i['protocolBinding'] === 'JSONRPC' && typeof i['url'] === 'string' && version) found.push({ url: i['url'], version })
  }
  // A v0.3 card: its main url speaks its preferred transport (JSON-RPC unless it says otherwise).
  const version = dialect(c.protocolVersion)
  if (typeof c.url === 'string' && version === '0.3' && (c.preferredTransport ?? 'JSONRPC') === 'JSONRPC') found.push({ url: c.url, version })
  for (const i of Array.isArray(c.additionalInterfaces) ? (c.additionalInterfaces as Record<string, unknown>[]) : []) {
    if (i['transport'] === 'JSONRPC' && typeof i['url'] === 'string' && version === '0.3') found.push({ url: i['url'], version })
  }
  return found
}

function dialect(protocolVersion: unknown): A2aVersion | undefined {
  if (typeof protocolVersion !== 'string') return undefined
  if (/^1(\.|$)/.test(protocolVersion)) return '1.0'
  if (/^0\.3(\.|$)/.test(protocolVersion)) return '0.3'
  return undefined
}
