import { lookupPath, type PathLookup } from './dotted-path.ts'

/**
 * `{context.KEY}` as request templates, set-up and tear-down requests and checks write it (KEY dotted
 * for nested maps, docs/scenarios.md), and a context value as such text holds it. One grammar for
 * every place that fills or names one.
 */
export const CONTEXT_PLACEHOLDER = /\{context((?:\.[^{}.\s]+)+)\}/g

/** The keys a text names, in order: `order_id`, `customer.id`. */
export function contextKeys(text: string): string[] {
  return [...text.matchAll(CONTEXT_PLACEHOLDER)].map((match) => match[1]!.slice(1))
}

/** The value at a key, as text: itself for text, JSON for anything else; or why the context lacks it. */
export function contextText(context: Readonly<Record<string, unknown>>, key: string): { found: true; text: string } | Extract<PathLookup, { found: false }> {
  const found = lookupPath(context, key)
  if (!found.found) return found
  return { found: true, text: typeof found.value === 'string' ? found.value : JSON.stringify(found.value) }
}
