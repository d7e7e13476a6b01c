import { createHash } from 'node:crypto'
import { CONVY_VERSION } from '../../base/shared/version.ts'
import { html, trusted, type SafeHtml } from './html.ts'
import { PAGE_SCRIPT } from './page-script.ts'
import { PAGE_STYLE } from './page-style.ts'

/**
 * The frame every page shares: one inline stylesheet and one inline script, allowed by their sha256
 * in a Content-Security-Policy that allows nothing else — no network, no other script, no inline
 * handler, no plugin, no form. Whatever slipped through escaping still could not run.
 */

function cspHash(source: string): string {
  return `'sha256-${createHash('sha256').update(source, 'utf8').digest('base64')}'`
}

const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  `script-src ${cspHash(PAGE_SCRIPT)}`,
  `style-src ${cspHash(PAGE_STYLE)}`,
  "base-uri 'none'",
  "form-action 'none'",
].join('; ')

const THEME_SWITCH = html`<div class="theme" role="group" aria-label="Theme" data-needs-js hidden>${(['system', 'light', 'dark'] as const).map(
  (choice) => html`<button type="button" data-theme-choice="${choice}" aria-pressed="false">${choice[0]!.toUpperCase() + choice.slice(1)}</button>`,
)}</div>`

/** Everything before the page's own content, up to and including the opening of <main>. */
export function pageStart(title: string): string {
  return (
    '<!doctype html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n' +
    `<meta http-equiv="Content-Security-Policy" content="${CONTENT_SECURITY_POLICY}">\n` +
    '<meta name="viewport" content="width=device-width, initial-scale=1">\n' +
    '<meta name="referrer" content="no-referrer">\n' +
    `<meta name="generator" content="convy-ci ${CONVY_VERSION}">\n` +
    html`<title>${title}</title>\n`.value +
    `<style>${PAGE_STYLE}</style>\n<script>${PAGE_SCRIPT}</script>\n</head>\n<body>\n<main>\n`
  )
}

/** Closes <main>; what follows (embedded data) sits outside it, then the document ends. */
export const MAIN_END = '\n</main>\n'
export const PAGE_END = '</body>\n</html>\n'

export function footer(): SafeHtml {
  return html`<footer>Made by convy-ci ${CONVY_VERSION}. This page works offline and runs no code but its own.</footer>`
}

export function renderPage(title: string, body: SafeHtml): string {
  return pageStart(title) + body.value + MAIN_END + PAGE_END
}

/** The top of every page: a small kicker line, the title, the theme switch. */
export function pageTop(kicker: string, title: string, extra: SafeHtml = trusted('')): SafeHtml {
  return html`<div class="top"><div><div class="kicker">${kicker}</div><h1>${title}</h1></div>${THEME_SWITCH}</div>${extra}`
}
