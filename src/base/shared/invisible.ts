/**
 * Characters that make text read differently from what it is: bidirectional overrides and isolates
 * (an agent's "txt.exe" shown as "exe.txt"), and control characters (a bell, an escape sequence that
 * rewrites a terminal, a carriage return that hides what came before). Text from agents, models and
 * file names passes through here before it reaches a page or a terminal. Markdown has its own
 * (views/markdown/neutralise.ts), which also flattens lines.
 */
export const BIDI = /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/g

// Tab and line feed are text; carriage return too within a page. Everything else below 0x20, DEL and
// the C1 block are not.
// eslint-disable-next-line no-control-regex -- control characters are exactly what this finds
const PAGE_CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/g
// eslint-disable-next-line no-control-regex -- control characters are exactly what this finds
const TERMINAL_CONTROL = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F]/g

/** For a page: bidirectional controls dropped, other controls shown as U+FFFD. */
export function forPage(text: string): string {
  return text.replace(BIDI, '').replace(PAGE_CONTROL, '\uFFFD')
}

/** For a terminal: every such character written as its escape (\u202e, \u001b), line feeds and tabs kept. */
export function forTerminal(text: string): string {
  const escape = (c: string) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`
  return text.replace(BIDI, escape).replace(TERMINAL_CONTROL, escape)
}
