import type { Message } from '../agent.ts'
import { contextText as textOfContext } from '../context-values.ts'

/**
 * The request templates of a JSON agent (convy.yml `url`, `headers`, `body`), also used by set-up and
 * tear-down requests. Inside every string, `{text}` becomes the user's message, `{session}` the
 * conversation's id, `{context.KEY}` (dotted for nested maps) a value of the attempt's context and
 * `{tools_url}` the address of the tools convy-ci serves (`{context.tools_url}`). A body value that is
 * exactly `"{history}"` becomes the message list `[{role, content}]`, and one that is exactly
 * `"{context}"` the whole context. Object keys are left alone.
 */
export interface TemplateValues {
  text: string
  session: string
  /** Every message so far, the new user message last: what a stateless agent needs to answer it. */
  history: readonly Message[]
  /** The attempt's context (docs/scenarios.md, "Setting up the world"); empty when none is configured. */
  context: Readonly<Record<string, unknown>>
}

const HISTORY_PLACEHOLDER = '{history}'
const CONTEXT_PLACEHOLDER = '{context}'

// One pass with one pattern, so a user message that itself contains "{session}" is sent as written.
const PLACEHOLDER = /\{(text|session|tools_url|context(?:\.[^{}.\s]+)+)\}/g

/** A context key a template names and the context does not have: the attempt cannot be played as written. */
export class MissingContextKey extends Error {
  constructor(
    readonly placeholder: string,
    problem: string,
  ) {
    super(`${placeholder} in a request template: ${problem}`)
  }
}

/** The text a context value stands for inside a string: itself for text, JSON for anything else. */
function contextText(values: TemplateValues, name: string): string {
  const found = textOfContext(values.context, name === 'tools_url' ? 'tools_url' : name.slice('context.'.length))
  if (!found.found) throw new MissingContextKey(`{${name}}`, `the context ${found.problem.replace(/^the answer/, 'map')}`)
  return found.text
}

function fillString(template: string, values: TemplateValues, encode: (text: string) => string = (text) => text): string {
  return template.replace(PLACEHOLDER, (_match, name: string) => (name === 'text' ? values.text : name === 'session' ? encode(values.session) : encode(contextText(values, name))))
}

export function fillTemplate(template: unknown, values: TemplateValues): unknown {
  if (template === HISTORY_PLACEHOLDER) return values.history.map(({ role, content }) => ({ role, content }))
  if (template === CONTEXT_PLACEHOLDER) return { ...values.context }
  if (typeof template === 'string') return fillString(template, values)
  if (Array.isArray(template)) return template.map((item) => fillTemplate(item, values))
  if (template !== null && typeof template === 'object') {
    return Object.fromEntries(Object.entries(template).map(([key, value]) => [key, fillTemplate(value, values)]))
  }
  return template
}

/**
 * A whole request from its templates: the body as above; in the URL and header values, `{session}`,
 * `{context.*}` and `{tools_url}` (the URL's percent-encoded, except `{tools_url}`, an address itself).
 * `{text}` stays a body placeholder: a user's message belongs in the body.
 */
export function fillRequest(
  template: { url: string; headers: Readonly<Record<string, string>>; body: unknown },
  values: TemplateValues,
): { url: string; headers: Record<string, string>; body: unknown } {
  const inUrl = (text: string, name: string) => (name === 'tools_url' ? text : encodeURIComponent(text))
  return {
    url: template.url.replace(PLACEHOLDER, (match, name: string) => (name === 'text' ? match : name === 'session' ? encodeURIComponent(values.session) : inUrl(contextText(values, name), name))),
    headers: Object.fromEntries(
      Object.entries(template.headers).map(([name, value]) => [name, value.replace(PLACEHOLDER, (match, key: string) => (key === 'text' ? match : key === 'session' ? values.session : contextText(values, key)))]),
    ),
    body: fillTemplate(template.body, values),
  }
}
