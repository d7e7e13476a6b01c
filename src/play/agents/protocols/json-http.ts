import type { JsonAgentConfig } from '../../../records/config/config.ts'
import type { Fetch } from '../../../base/http/fetch.ts'
import type { Agent, Answer } from '../agent.ts'
import { fillRequest } from './body-template.ts'
import { lookupPath } from '../dotted-path.ts'
import { excerpt, fetchJson } from '../fetch-json.ts'
import { usageAt } from './usage.ts'

/**
 * An agent behind a JSON API, described in convy.yml by templates in and paths out. Every turn is one
 * request: the body template filled with the message, the session id and the history, then `reply`
 * and `tokens` read from the JSON answer. Anything else is a failed turn with the reason in words.
 */

/** `fetch`: the HTTP client; default: the built-in one. */
export function createJsonHttpAgent(config: JsonAgentConfig, fetch?: Fetch): Agent {
  return {
    version: config.version,
    conversation: () => ({
      async answer(message, { session, history, signal, context }) {
        const { url, headers, body } = fillRequest(config, { text: message, session, context, history: [...history, { role: 'user', content: message }] })
        const json = await fetchJson(url, { method: config.method, headers, body, signal, fetch })
        return readAnswer(json, config)
      },
    }),
  }
}

export function readAnswer(json: unknown, config: Pick<JsonAgentConfig, 'reply' | 'tokens'>): Answer {
  const reply = lookupPath(json, config.reply)
  if (!reply.found || typeof reply.value !== 'string') {
    const problem = reply.found ? `it is ${JSON.stringify(reply.value) ?? 'undefined'}, not a string` : reply.problem
    throw new Error(`no reply text at "${config.reply}": ${problem}. The answer was: ${excerpt(JSON.stringify(json))}`)
  }
  const usage = config.tokens === undefined ? undefined : usageAt(json, config.tokens)
  return usage === undefined ? { text: reply.value } : { text: reply.value, usage }
}
