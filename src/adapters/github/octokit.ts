import { getOctokit } from '@actions/github'
import { retry } from '@octokit/plugin-retry'

export type Octokit = ReturnType<typeof getOctokit>

/**
 * A REST client for the API the workflow runs against. The address is passed in rather than left to
 * @actions/github, which reads GITHUB_API_URL once, when it is first imported. Server errors and rate
 * limits are retried; 4xx answers (no permission, too long) are not, as they would only repeat.
 */
export function createOctokit(token: string, apiUrl: string): Octokit {
  return getOctokit(token, { baseUrl: apiUrl, retry: { retries: 3 } }, retry)
}
