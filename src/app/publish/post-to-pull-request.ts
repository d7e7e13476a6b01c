import type { Direction } from '../../verdict/decide.ts'
import { apiFailure } from '../../adapters/github/api-error.ts'
import { createCompletedCheck, type CheckConclusion } from '../../adapters/github/check-run.ts'
import { upsertStickyComment } from '../../adapters/github/sticky-comment.ts'
import type { PublishDeps } from './deps.ts'
import { noMask } from '../../base/shared/secrets.ts'

/** Where a run's result is posted: a pull request (comment and check), or a merge queue's commit (check). */
export interface PublishTarget {
  /** The pull request; null for a merge group, which has no conversation to comment on. */
  number: number | null
  /** Checks go on the pull request's head commit (never GITHUB_SHA, a merge commit), or the merge group's. */
  headSha: string
  /** Why the token cannot write here (a fork), or null. */
  readOnlyReason: string | null
  /**
   * Why the run cannot be trusted to say what it did (made by a fork's workflow, published by mode:
   * publish), or null: its check is then never success, whatever the run says.
   */
  unverified?: string | null
}

export interface PullRequestPost {
  agent: string
  marker: string
  /** The check run's name: what branch protection requires. */
  checkName: string
  markdown: string
  verdict: Direction | 'inconclusive' | 'no-baseline'
  /** Worth a comment under `comment: on-change`: Worse, Better, or a comparison that says first it cannot tell (verdict/standing.ts). */
  noteworthy: boolean
  conclusion: CheckConclusion
  title: string
  reportUrl: string | null
}

/**
 * The comment (one per agent and job, updated in place) and the check run (`convy / <agent>`). Both
 * are optional: what cannot be done is skipped with a word saying why, and never fails the step. A
 * token known to be read-only is not even tried.
 */
export async function postToPullRequest(deps: PublishDeps, target: PublishTarget, post: PullRequestPost): Promise<string | null> {
  const { settings: inputs, log, octokit } = deps
  const mask = deps.mask ?? noMask
  const commenting = inputs.comment !== 'never' && target.number !== null
  const wanted = [commenting ? 'comment' : '', inputs.check ? 'check' : ''].filter(Boolean)
  if (wanted.length === 0) return null
  const where = target.number === null ? `the merge group's commit ${target.headSha.slice(0, 7)}` : `pull request #${target.number}`
  const skipped = `${post.agent}: the ${wanted.join(' and ')} on ${where} ${wanted.length > 1 ? 'were' : 'was'} skipped`
  if (!octokit) {
    log.warning(`${skipped}: there is no GitHub token (the action's github-token, GITHUB_TOKEN for the CLI)`)
    return null
  }
  if (target.readOnlyReason) {
    log.notice(`${skipped}: ${target.readOnlyReason}. The job summary has the same text; to post it, use mode: publish in a workflow_run workflow (docs/action.md: "Pull requests from forks").`)
    return null
  }
  const { owner, repo } = deps.repository
  let commentUrl: string | null = null
  if (commenting && target.number !== null) {
    try {
      const result = await upsertStickyComment(octokit, {
        owner,
        repo,
        issueNumber: target.number,
        marker: post.marker,
        body: mask(post.markdown),
        updateOnly: inputs.comment === 'on-change' && !post.noteworthy,
        cutNote: `…cut to fit GitHub's comment limit${post.reportUrl ? `; the [full report](${post.reportUrl}) has everything` : ''}.`,
      })
      commentUrl = result.url
      if (result.action === 'none') log.info(`${post.agent}: no comment (comment: on-change, and the verdict is ${post.verdict})`)
      else log.info(`${post.agent}: comment ${result.action}: ${result.url}`)
    } catch (error) {
      log.warning(`${post.agent}: the comment on pull request #${target.number} was not posted: ${apiFailure(error, 'pull-requests: write')}`)
    }
  }
  if (inputs.check) {
    try {
      const check = await createCompletedCheck(octokit, {
        owner,
        repo,
        name: post.checkName,
        headSha: target.headSha,
        conclusion: post.conclusion,
        title: mask(post.title),
        summary: mask(post.markdown),
        detailsUrl: post.reportUrl,
        cutNote: `…cut to fit GitHub's check summary limit${post.reportUrl ? `; the [full report](${post.reportUrl}) has everything` : ''}.`,
      })
      log.info(`${post.agent}: check run ${post.checkName}: ${post.conclusion}${check.url ? ` ${check.url}` : ''}`)
    } catch (error) {
      log.warning(`${post.agent}: the check run was not created: ${apiFailure(error, 'checks: write')}`)
    }
  }
  return commentUrl
}
