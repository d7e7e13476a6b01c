import type { Octokit } from './octokit.ts'

/** The most of a file read from the repository at another commit: a convy.yml or a workflow file, never more. */
export const REPO_FILE_MAX_BYTES = 1_000_000

/**
 * A file of the repository at a commit (the contents API, with the job's token: `contents: read`), or
 * null when it is not there (404: the pull request added it). Anything else throws: the caller says
 * what it could not read. Only files, and only small ones.
 */
export async function readRepoFile(octokit: Octokit, where: { owner: string; repo: string; path: string; ref: string }): Promise<string | null> {
  try {
    const { data } = await octokit.rest.repos.getContent({ owner: where.owner, repo: where.repo, path: where.path, ref: where.ref })
    if (Array.isArray(data) || data.type !== 'file' || !('content' in data)) throw new Error(`${where.path} at ${where.ref.slice(0, 7)} is not a file`)
    if (data.size > REPO_FILE_MAX_BYTES) throw new Error(`${where.path} at ${where.ref.slice(0, 7)} is ${data.size} bytes, more than a settings file has`)
    return Buffer.from(data.content, data.encoding === 'base64' ? 'base64' : 'utf8').toString('utf8')
  } catch (error) {
    if (typeof error === 'object' && error !== null && 'status' in error && (error as { status: unknown }).status === 404) return null
    throw error
  }
}
