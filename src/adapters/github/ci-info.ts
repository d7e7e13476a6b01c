import { readFileSync } from 'node:fs'
import type { RunManifest } from '../../records/journal/records.ts'

/**
 * The commit, branch and pull request of a CI run. On a pull request GITHUB_SHA is a merge commit
 * nobody pushed, so the head commit comes from the event payload.
 */
export function ciInfo(env: Readonly<Record<string, string | undefined>>): RunManifest['ci'] {
  if (env.GITHUB_ACTIONS !== 'true') return null
  let pullRequest: { number?: number; head?: { sha?: string; ref?: string } } | undefined
  try {
    if (env.GITHUB_EVENT_PATH) pullRequest = (JSON.parse(readFileSync(env.GITHUB_EVENT_PATH, 'utf8')) as { pull_request?: typeof pullRequest }).pull_request
  } catch {
    pullRequest = undefined
  }
  return {
    commit: pullRequest?.head?.sha ?? env.GITHUB_SHA ?? null,
    branch: pullRequest?.head?.ref ?? env.GITHUB_HEAD_REF ?? env.GITHUB_REF_NAME ?? null,
    pullRequest: typeof pullRequest?.number === 'number' ? pullRequest.number : null,
  }
}
