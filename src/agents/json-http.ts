import type { JsonAgentConfig } from '../config/config.ts'
import type { Fetch } from '../http/fetch.ts'
import type { Agent, Answer, Usage } from './agent.ts'
import { fillTemplate } from './body-template.ts'
import { lookupPath } from './dotted-path.ts'
import { excerpt, fetchJson } from './fetch-json.ts'

/**
 * An agent behind a JSON API, described in convy.yml by templates in and paths out. Every turn is one
 * request: the body template filled with the message, the session id and the history, then `reply`
 * and `tokens` read from the JSON answer. Anything else is a failed turn with the reason in words.
 */

const SESSION = /\{session\}/g

/** `fetch`: the HTTP client; default: the built-in one. */
export function createJsonHttpAgent(config: JsonAgentConfig, fetch?: Fetch): Agent {
  return {
    version: config.version,
    conversation: () => ({
      async answer(message, { session, history, signal }) {
        // `{session}` also works in the URL and header values, for APIs that key a conversation there.
        const url = config.url.replace(SESSION, encodeURIComponent(session))
        const headers = Object.fromEntries(Object.entries(config.headers).map(([name, value]) => [name, value.replace(SESSION, session)]))
        const body = fillTemplate(config.body, { text: message, session, history: [...history, { role: 'user', content: message }] })
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
  const usage = config.tokens === undefined ? undefined : readUsage(json, config.tokens)
  return usage === undefined ? { text: reply.value } : { text: reply.value, usage }
}

// Token counts are bookkeeping, not the agent's job: a count that is missing stays unknown rather
// than failing a turn the agent answered well.
function readUsage(json: unknown, [inputPath, outputPath]: readonly [string, string]): Usage | undefined {
  const input = readCount(json, inputPath)
  const output = readCount(json, outputPath)
  if (input === undefined && output === undefined) return undefined
  return { input, output }
}

function readCount(json: unknown, path: string): number | undefined {
  const found = lookupPath(json, path)
  return found.found && typeof found.value === 'number' && Number.isFinite(found.value) && found.value >= 0 ? found.value : undefined
}
