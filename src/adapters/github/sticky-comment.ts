import { COMMENT_CHARACTERS, fitCharacters } from './limits.ts'
import type { Octokit } from './octokit.ts'

export interface StickyComment {
  owner: string
  repo: string
  issueNumber: number
  /** A hidden line the body starts with; it finds the comment again on the next run. */
  marker: string
  body: string
  /** Only update a comment that is already there; never start a new one. */
  updateOnly: boolean
  /** Said where the body had to be cut to fit. */
  cutNote: string
}

export interface CommentResult {
  action: 'created' | 'updated' | 'none'
  url: string | null
}

/**
 * One comment per marker, updated in place. Every page of the conversation is read: on a long pull
 * request the first comment is rarely on the first page.
 */
export async function upsertStickyComment(octokit: Octokit, request: StickyComment): Promise<CommentResult> {
  const { owner, repo, issueNumber, marker } = request
  const body = fitCharacters(request.body, COMMENT_CHARACTERS, request.cutNote)
  const comments = await octokit.paginate(octokit.rest.issues.listComments, { owner, repo, issue_number: issueNumber, per_page: 100 })
  const existing = comments.find((comment) => comment.body?.startsWith(marker))
  if (existing) {
    const { data } = await octokit.rest.issues.updateComment({ owner, repo, comment_id: existing.id, body })
    return { action: 'updated', url: data.html_url }
  }
  if (request.updateOnly) return { action: 'none', url: null }
  const { data } = await octokit.rest.issues.createComment({ owner, repo, issue_number: issueNumber, body })
  return { action: 'created', url: data.html_url }
}
