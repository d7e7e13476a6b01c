import { randomUUID } from 'node:crypto'
import type { A2aAgentConfig } from '../../../records/config/config.ts'
import type { Fetch } from '../../../base/http/fetch.ts'
import type { Agent, Answer } from '../agent.ts'
import { methodFor, readResult, userMessage, versionHeaders, type A2aVersion } from './a2a-wire.ts'
import { A2aTurn, type A2aAnswer } from './a2a-turn.ts'
import { excerpt, fetchJson } from '../fetch-json.ts'
import { jsonData, openStream, sseEvents } from './http-stream.ts'
import { findUsage, usageAt } from './usage.ts'
import { spoken } from '../answer-messages.ts'

/**
 * An Agent2Agent agent (`protocol: a2a`), over JSON-RPC: v1.0 (`SendMessage`, `SendStreamingMessage`)
 * or v0.3 (`message/send`, `message/stream`), as its agent card offers. The conversation is the
 * server's `contextId`, sent back with every message; a task waiting for input (`input-required`)
 * is continued by sending its `taskId` too. The answer is the message the agent sent, or the text of
 * the task's artifacts (its status message when it has none): each text part of a message, and each
 * artifact, is a message of its own (a2a-turn.ts). A failed task is a failed turn.
 * A2A itself carries no tool calls: they are read where Google's ADK puts them (data parts marked
 * `function_call`). Usage is read where the agent puts it in metadata.
 */
export function createA2aAgent(config: A2aAgentConfig, fetch?: Fetch): Agent {
  let endpoint: Promise<A2aEndpoint> | undefined
  const discover = (signal: AbortSignal) => {
    endpoint ??= findA2aEndpoint(config, fetch, signal).catch((error: unknown) => {
      // Not cached: the next conversation asks again (the agent may have been starting).
      endpoint = undefined
      throw error
    })
    return endpoint
  }
  return {
    version: config.version,
    async conversation({ signal }) {
      const target = await discover(signal)
      const ids: { contextId?: string; taskId?: string } = {}
      return {
        async answer(message, context) {
          const request = {
            jsonrpc: '2.0',
            id: randomUUID(),
            method: methodFor(target.version, config.stream),
            params: { message: userMessage(target.version, message, randomUUID(), ids, context.context) },
          }
          const headers = { ...versionHeaders(target.version), ...config.headers }
          // Only a stream has a first token; a single reply arrives whole.
          const turn = new A2aTurn(config.stream ? () => context.firstToken?.() : () => undefined)
          const what = `${request.method} at ${target.url}`
          if (config.stream) {
            const stream = await openStream(target.url, { headers, body: request, signal: context.signal, fetch })
            for await (const event of sseEvents(stream.chunks)) {
              turn.add(readResult(target.version, resultOf(jsonData(event) ?? event.data, what, target)))
              if (turn.final) break
            }
          } else {
            const json = await fetchJson(target.url, { headers, body: request, signal: context.signal, fetch })
            turn.add(readResult(target.version, resultOf(json, what, target)))
          }
          const answered = turn.answer(what, config.stream)
          ids.contextId = answered.contextId ?? ids.contextId
          ids.taskId = answered.waitingTaskId
          return answerOf(answered, turn.metadata, config)
        },
      }
    },
  }
}

function resultOf(json: unknown, what: string, target: A2aEndpoint): unknown {
  if (json === null || typeof json !== 'object') throw new Error(`${what} answered with something that is not JSON-RPC: ${excerpt(String(json))}`)
  const { result, error } = json as { result?: unknown; error?: { code?: unknown; message?: unknown } }
  if (error !== undefined) {
    // The dialect decides the method names: a server of the other one does not know them.
    const hint = error.code === -32601 ? ` (the server may not speak A2A ${target.version}; set a2a_version: "${target.version === '1.0' ? '0.3' : '1.0'}")` : ''
    throw new Error(`${what} answered JSON-RPC error ${String(error.code)}: ${excerpt(String(error.message))}${hint}`)
  }
  if (result === undefined) throw new Error(`${what} answered without a result: ${excerpt(JSON.stringify(json))}`)
  return result
}

function answerOf({ messages, toolCalls }: A2aAnswer, metadata: Record<string, unknown> | undefined, config: A2aAgentConfig): Answer {
  const usage = config.tokens ? usageAt(metadata, config.tokens) : findUsage(metadata)
  return { ...spoken(messages), ...(usage ? { usage } : {}), ...(toolCalls.length > 0 ? { toolCalls } : {}) }
}

/**
 * Where to send JSON-RPC, and in which dialect, from the agent card. A v1.0 card lists
 * `supportedInterfaces` with a binding and a version each; a v0.3 card has one `url` with its
 * `preferredTransport` and `protocolVersion`. The card is asked for with `A2A-Version: 1.0`: without
 * it, a server that speaks both may describe itself as v0.3 only.
 */
interface A2aEndpoint {
  url: string
  version: A2aVersion
}

const CARD_PATH = '.well-known/agent-card.json'

async function findA2aEndpoint(config: A2aAgentConfig, fetch: Fetch | undefined, signal: AbortSignal): Promise<A2aEndpoint> {
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
