import type { Message } from '../agent.ts'

/**
 * The request body template of a JSON agent (convy.yml `body`): any JSON value in which, inside every
 * string, `{text}` becomes the user's message and `{session}` the conversation's id, and a string that
 * is exactly `"{history}"` becomes the message list `[{role, content}]`. Object keys are left alone.
 */
export interface TemplateValues {
  text: string
  session: string
  /** Every message so far, the new user message last: what a stateless agent needs to answer it. */
  history: readonly Message[]
}

const HISTORY_PLACEHOLDER = '{history}'

// One pass with one pattern, so a user message that itself contains "{session}" is sent as written.
const PLACEHOLDER = /\{(text|session)\}/g

function fillString(template: string, values: Pick<TemplateValues, 'text' | 'session'>): string {
  return template.replace(PLACEHOLDER, (_match, name: 'text' | 'session') => values[name])
}

export function fillTemplate(template: unknown, values: TemplateValues): unknown {
  if (template === HISTORY_PLACEHOLDER) return values.history.map(({ role, content }) => ({ role, content }))
  if (typeof template === 'string') return fillString(template, values)
  if (Array.isArray(template)) return template.map((item) => fillTemplate(item, values))
  if (template !== null && typeof template === 'object') {
    return Object.fromEntries(Object.entries(template).map(([key, value]) => [key, fillTemplate(value, values)]))
  }
  return template
}

const SESSION = /\{session\}/g

/**
 * A whole request from its templates: the body as above, and `{session}` in the URL and header
 * values too, for APIs that key a conversation there.
 */
export function fillRequest(
  template: { url: string; headers: Readonly<Record<string, string>>; body: unknown },
  values: TemplateValues,
): { url: string; headers: Record<string, string>; body: unknown } {
  return {
    url: template.url.replace(SESSION, encodeURIComponent(values.session)),
    headers: Object.fromEntries(Object.entries(template.headers).map(([name, value]) => [name, value.replace(SESSION, values.session)])),
    body: fillTemplate(template.body, values),
  }
}
