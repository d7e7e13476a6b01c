import { getOctokit } from '@actions/github'
import { retry } from '@octokit/plugin-retry'
import { maskDeep, noMask, type Mask } from '../../base/shared/secrets.ts'

export type Octokit = ReturnType<typeof getOctokit>

/**
 * A REST client for the API the workflow runs against. The address is passed in rather than left to
 * @actions/github, which reads GITHUB_API_URL once, when it is first imported. Server errors and rate
 * limits are retried; 4xx answers (no permission, too long) are not, as they would only repeat.
 *
 * `mask` is applied to everything a write sends (a comment's body, a check's title, summary and
 * text), as the last step before the request leaves: after every clean-up and cut of the text, so
 * nothing done to it on the way can join a secret back together.
 */
export function createOctokit(token: string, apiUrl: string, mask: Mask = noMask): Octokit {
  const octokit = getOctokit(token, { baseUrl: apiUrl, retry: { retries: 3 } }, retry)
  if (mask !== noMask) octokit.hook.before('request', (options) => maskRequest(options as Record<string, unknown>, mask))
  return octokit
}

/** Octokit's own fields of a request, and the headers (the token is in them, where it belongs). */
const NOT_SENT_AS_TEXT = new Set(['method', 'url', 'baseUrl', 'headers', 'request', 'mediaType'])

/**
 * Masks a write's parameters in place. A parameter of the address (`{owner}`, `{comment_id}`) says
 * where the write goes and is left as it is, and reads send nothing of ours.
 */
export function maskRequest(options: Record<string, unknown>, mask: Mask): void {
  const method = String(options.method ?? 'GET').toUpperCase()
  if (method === 'GET' || method === 'HEAD') return
  const inAddress = new Set([...String(options.url ?? '').matchAll(/\{(\w+)\}/g)].map((m) => m[1]!))
  for (const key of Object.keys(options)) {
    if (NOT_SENT_AS_TEXT.has(key) || inAddress.has(key)) continue
    options[key] = maskDeep(options[key], mask)
  }
}
