import { BIDI } from '../../base/shared/invisible.ts'

/**
 * Makes untrusted text — anything an agent, a model, a scenario file or a run folder said — safe to
 * place inline in GitHub markdown (a table cell, a list item, a heading): it renders as the same
 * words, and does nothing else. No HTML, no links or images, no code spans or emphasis, no @mentions
 * or #references that notify people, no line breaks that start new blocks, no table-breaking pipes.
 * Never put the result inside a code span: backslash escapes do not work there.
 */
export const DEFAULT_MAX_LENGTH = 200

/** Joins text so GitHub no longer sees a mention, reference or address, while it reads the same. */
const JOINER = '\u200D'

const HTML_ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;' }

/** Characters with a meaning in GitHub markdown; a backslash makes each one literal. */
const MARKDOWN_PUNCTUATION = new Set(['\\', '`', '*', '_', '[', ']', '(', ')', '!', '|', '~', '$', '{', '}', '^'])

// Controls (newlines included) become spaces; bidirectional overrides, which can make text read
// differently from what it is, are dropped.
// eslint-disable-next-line no-control-regex -- control characters are exactly what this removes
const CONTROL = /[\u0000-\u001F\u007F-\u009F\u2028\u2029]/g

export function neutralise(text: string, maxLength: number = DEFAULT_MAX_LENGTH): string {
  const flat = text.replace(CONTROL, ' ').replace(BIDI, '').replace(/\s+/g, ' ').trim()
  return escapeInline(truncate(flat, maxLength))
}

function truncate(text: string, maxLength: number): string {
  const characters = Array.from(text)
  return characters.length <= maxLength ? text : `${characters.slice(0, Math.max(0, maxLength - 1)).join('')}…`
}

function escapeInline(text: string): string {
  let out = ''
  for (const character of text) {
    if (character in HTML_ENTITIES) out += HTML_ENTITIES[character]
    else if (MARKDOWN_PUNCTUATION.has(character)) out += `\\${character}`
    // @name mentions people and teams, #12 and GH-12 reference issues: a joiner breaks the pattern.
    else if (character === '@' || character === '#') out += character + JOINER
    else out += character
  }
  // Bare addresses become links in GitHub markdown (http://…, www.…); a joiner keeps them plain text.
  return out.replace(/:\/\//g, `:${JOINER}//`).replace(/www\./gi, (match) => `${match.slice(0, 3)}${JOINER}.`).replace(/\b(GH)-(?=\d)/gi, `$1-${JOINER}`)
}
