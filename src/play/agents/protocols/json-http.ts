import type { JsonAgentConfig } from '../../../records/config/config.ts'
import type { Fetch } from '../../../base/http/fetch.ts'
import type { Agent, Answer } from '../agent.ts'
import { fillRequest } from './body-template.ts'
import { describeJsonType, lookupPath } from '../dotted-path.ts'
import { spoken } from '../answer-messages.ts'
import { excerpt, fetchJson } from '../fetch-json.ts'
import { usageAt } from './usage.ts'
import { cutJsonStrings } from '../cut-json.ts'
import { DEFAULT_MAX_REPLY_KB } from '../reply-limit.ts'

/**
 * An agent behind a JSON API, described in convy.yml by templates in and paths out. Every turn is one
 * request: the body template filled with the message, the session id, the history and the context,
 * then `reply` (a text, or a list of messages) and `tokens` read from the JSON answer. Anything else
 * is a failed turn with the reason in words.
 */

/** `fetch`: the HTTP client; default: the built-in one. */
export function createJsonHttpAgent(config: JsonAgentConfig, fetch?: Fetch): Agent {
  // Strings past what is kept of an answer are cut as they are read (the reply is cut again to the same
  // size, and marked, by reply-limit.ts): a huge answer never sits in memory whole.
  const maxReplyBytes = (config.max_reply_kb ?? DEFAULT_MAX_REPLY_KB) * 1024
  return {
    version: config.version,
    conversation: () => ({
      async answer(message, { session, history, signal, context }) {
        const { url, headers, body } = fillRequest(config, { text: message, session, context, history: [...history, { role: 'user', content: message }] })
        const json = await fetchJson(url, { method: config.method, headers, body, signal, fetch, reader: cutJsonStrings(maxReplyBytes) })
        return readAnswer(json, config)
      },
    }),
  }
}

export function readAnswer(json: unknown, config: Pick<JsonAgentConfig, 'reply' | 'tokens'>): Answer {
  const said = replyAt(json, config.reply)
  const usage = config.tokens === undefined ? undefined : usageAt(json, config.tokens)
  return usage === undefined ? said : { ...said, usage }
}

/**
 * The answer at `reply`: a string, or a list of strings (an answer of several messages). A `*`
 * segment takes each item of a list, and the rest of the path is read in each (`messages.*.text`,
 * or `*.text` for a list at the top, as Rasa answers); items without a string there (an image, buttons)
 * are passed over.
 */
function replyAt(json: unknown, path: string): { text: string; messages?: string[] } {
  const missing = (problem: string) => new Error(`no reply text at "${path}": ${problem}. The answer was: ${excerpt(JSON.stringify(json) ?? '')}`)
  const segments = path.split('.')
  const star = segments.indexOf('*')
  if (star >= 0) return eachItem(json, segments.slice(0, star).join('.'), segments.slice(star + 1).join('.'), missing)
  const reply = lookupPath(json, path)
  if (!reply.found) throw missing(reply.problem)
  if (typeof reply.value === 'string') return { text: reply.value }
  if (Array.isArray(reply.value) && reply.value.every((item) => typeof item === 'string')) return spoken(reply.value as string[])
  throw missing(`it is ${excerpt(JSON.stringify(reply.value) ?? 'undefined')}, not a string or a list of strings`)
}

function eachItem(json: unknown, listPath: string, itemPath: string, missing: (problem: string) => Error): { text: string; messages?: string[] } {
  const list = listPath === '' ? { found: true as const, value: json } : lookupPath(json, listPath)
  if (!list.found) throw missing(list.problem)
  if (!Array.isArray(list.value)) throw missing(`${listPath === '' ? 'the answer' : `"${listPath}"`} is ${describeJsonType(list.value)}, not a list for "*"`)
  const found = list.value.map((item) => (itemPath === '' ? { found: true as const, value: item } : lookupPath(item, itemPath)))
  const messages = found.flatMap((item) => (item.found && typeof item.value === 'string' ? [item.value] : []))
  // A list where no item has text at the path is more likely a wrong path than an agent that said nothing.
  if (messages.length === 0 && list.value.length > 0) throw missing(`no item of the list has a string at "${itemPath || '*'}"`)
  return spoken(messages)
}
