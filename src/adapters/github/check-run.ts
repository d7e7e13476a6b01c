import { CHECK_SUMMARY_CHARACTERS, fitCharacters } from './limits.ts'
import type { Octokit } from './octokit.ts'

/** The check run's name, which a required status check names: `convy / support_bot (node-24)`. */
export function checkRunName(agent: string, job: string | null): string {
  return job ? `convy / ${agent} (${job})` : `convy / ${agent}`
}

export type CheckConclusion = 'success' | 'failure' | 'neutral'

export interface CompletedCheck {
  owner: string
  repo: string
  name: string
  /** The pull request's head commit, where reviewers see checks. */
  headSha: string
  conclusion: CheckConclusion
  title: string
  summary: string
  detailsUrl: string | null
  cutNote: string
}

/** A finished check run; its conclusion is what branch protection can require. */
export async function createCompletedCheck(octokit: Octokit, check: CompletedCheck): Promise<{ id: number; url: string | null }> {
  const { data } = await octokit.rest.checks.create({
    owner: check.owner,
    repo: check.repo,
    name: check.name,
    head_sha: check.headSha,
    status: 'completed',
    conclusion: check.conclusion,
    ...(check.detailsUrl ? { details_url: check.detailsUrl } : {}),
    output: { title: check.title, summary: fitCharacters(check.summary, CHECK_SUMMARY_CHARACTERS, check.cutNote) },
  })
  return { id: data.id, url: data.html_url }
}
