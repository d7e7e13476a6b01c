import { readFileSync } from 'node:fs'
import * as z from '../../base/shared/zod.ts'
import { InputError } from '../../base/shared/errors.ts'

/**
 * What the action needs to know about the workflow run it is in, read from the environment and the
 * event payload when asked (never at import time: tests and the CLI set the environment late).
 */
export interface Repository {
  owner: string
  repo: string
}

export interface PullRequest {
  number: number
  /** The pull request's own head commit; GITHUB_SHA is a merge commit nobody pushed. */
  headSha: string
  baseRef: string
  /** The pull request's branch (in the fork, for a fork). */
  headRef: string
  /** From another repository: the token is read-only and secrets are absent. */
  fromFork: boolean
  /** The base branch's commit the pull request is compared against: whose rules decide the gate; null when the event does not say. */
  baseSha: string | null
}

export interface TriggeringRun {
  id: number
  workflowId: number
  event: string
  headSha: string
  headRepository: string | null
  /** Pull requests GitHub links to the run; empty for pull requests from forks. */
  pullRequests: number[]
}

export interface MergeGroup {
  /** The commit the merge queue tests; a required check must be posted on it. */
  headSha: string
  /** The branch the queue merges into (main), whose runs are the baseline. */
  baseBranch: string
}

export interface GitHubRun {
  eventName: string
  repository: Repository
  runId: number
  runAttempt: number
  serverUrl: string
  apiUrl: string
  defaultBranch: string | null
  pullRequest: PullRequest | null
  /** Set on merge_group events: the queue's temporary commit, and the branch it merges into. */
  mergeGroup: MergeGroup | null
  /** Set on workflow_run events: the run that finished and triggered this one. */
  triggeringRun: TriggeringRun | null
  /** Why the token cannot write to the pull request, or null when it can. */
  readOnlyReason: string | null
  /** The branch the run is on (a pull request's head branch); null for tags and detached runs. */
  branch: string | null
  /** The workflow file this run runs (GITHUB_WORKFLOW_REF's path, e.g. .github/workflows/convy.yml), and its job's id (GITHUB_JOB); null when not said. */
  workflowPath: string | null
  job: string | null
  /** Why this run may only read the Actions cache, or null when it may also save to it. */
  cacheReadOnlyReason: string | null
}

const RepoRef = z.optional(z.nullable(z.object({ full_name: z.string() })))

const PayloadSchema = z.object({
  repository: z.optional(z.object({ default_branch: z.optional(z.string()) })),
  pull_request: z.optional(
    z.object({
      number: z.int(),
      head: z.object({ sha: z.string(), ref: z.string(), repo: RepoRef }),
      base: z.object({ ref: z.string(), sha: z.optional(z.string()), repo: RepoRef }),
    }),
  ),
  merge_group: z.optional(z.object({ head_sha: z.string(), base_ref: z.string() })),
  workflow_run: z.optional(
    z.object({
      id: z.int(),
      workflow_id: z.int(),
      event: z.string(),
      head_sha: z.string(),
      head_repository: RepoRef,
      pull_requests: z._default(z.array(z.object({ number: z.int() })), []),
    }),
  ),
})

type Env = Readonly<Record<string, string | undefined>>

export function readGitHubRun(env: Env): GitHubRun {
  const eventName = required(env, 'GITHUB_EVENT_NAME')
  const payload = readPayload(env.GITHUB_EVENT_PATH)
  const [owner, repo] = required(env, 'GITHUB_REPOSITORY').split('/')
  if (!owner || !repo) throw new InputError(`GITHUB_REPOSITORY ${env.GITHUB_REPOSITORY}: expected owner/name`)
  // pull_request_target: the base branch's workflow run for a pull request (the trusted rerun of docs/action.md).
  const pr = eventName === 'pull_request' || eventName === 'pull_request_target' ? payload.pull_request : undefined
  const fromFork = pr ? pr.head.repo?.full_name !== pr.base.repo?.full_name : false
  const run = payload.workflow_run
  const group = eventName === 'merge_group' ? payload.merge_group : undefined
  return {
    eventName,
    repository: { owner, repo },
    runId: Number(required(env, 'GITHUB_RUN_ID')),
    runAttempt: Number(env.GITHUB_RUN_ATTEMPT ?? '1'),
    serverUrl: (env.GITHUB_SERVER_URL || 'https://github.com').replace(/\/+$/, ''),
    apiUrl: (env.GITHUB_API_URL || 'https://api.github.com').replace(/\/+$/, ''),
    defaultBranch: payload.repository?.default_branch ?? null,
    pullRequest: pr ? { number: pr.number, headSha: pr.head.sha, headRef: pr.head.ref, baseRef: pr.base.ref, fromFork, baseSha: pr.base.sha ?? null } : null,
    mergeGroup: group ? { headSha: group.head_sha, baseBranch: group.base_ref.replace(/^refs\/heads\//, '') } : null,
    triggeringRun: run
      ? {
          id: run.id,
          workflowId: run.workflow_id,
          event: run.event,
          headSha: run.head_sha,
          headRepository: run.head_repository?.full_name ?? null,
          pullRequests: run.pull_requests.map((p) => p.number),
        }
      : null,
    // pull_request_target runs the base branch's workflow with a token that can write (the trusted rerun, docs/action.md).
    readOnlyReason: fromFork && eventName !== 'pull_request_target'
      ? 'this pull request comes from a fork, so its token is read-only'
      : pr && env.GITHUB_ACTOR === 'dependabot[bot]'
        ? 'Dependabot pull requests get a read-only token'
        : null,
    branch: pr ? pr.head.ref : (/^refs\/heads\/(.+)$/.exec(env.GITHUB_REF ?? '')?.[1] ?? null),
    cacheReadOnlyReason: cacheReadOnlyReason(eventName, fromFork, env.ACTIONS_CACHE_MODE),
    workflowPath: /^[^/]+\/[^/]+\/(.+?)@/.exec(env.GITHUB_WORKFLOW_REF ?? '')?.[1] ?? null,
    job: env.GITHUB_JOB || null,
  }
}

/**
 * Runs of untrusted code get a read-only Actions cache (since 2026-06-26): whatever they saved could
 * be restored by the default branch. A fork's pull request is treated the same way, so its entries
 * never mix with the repository's; the workflow's `cache-mode:` says so in ACTIONS_CACHE_MODE.
 */
function cacheReadOnlyReason(eventName: string, fromFork: boolean, cacheMode: string | undefined): string | null {
  if (fromFork) return 'a pull request from a fork may only read the Actions cache'
  if (['pull_request_target', 'workflow_run', 'issue_comment'].includes(eventName)) return `${eventName} runs get a read-only Actions cache`
  const mode = (cacheMode ?? '').trim().toLowerCase()
  if (mode === 'read' || mode === 'none') return `the workflow's cache-mode is ${mode}`
  return null
}

function readPayload(path: string | undefined): z.infer<typeof PayloadSchema> {
  if (!path) return {}
  let data: unknown
  try {
    data = JSON.parse(readFileSync(path, 'utf8'))
  } catch (error) {
    throw new InputError(`the event payload ${path} cannot be read: ${(error as Error).message}`)
  }
  const parsed = PayloadSchema.safeParse(data)
  if (!parsed.success) throw new InputError(`the event payload ${path} is not what GitHub sends: ${parsed.error.issues[0]?.path.join('.')}: ${parsed.error.issues[0]?.message}`)
  return parsed.data
}

function required(env: Env, name: string): string {
  const value = env[name]
  if (!value) throw new InputError(`${name} is not set: the action runs inside GitHub Actions (for a local run, use npx convy-ci)`)
  return value
}

/** The page of an artifact on github.com; it opens in the browser for a signed-in reader. */
export function artifactUrl(run: Pick<GitHubRun, 'serverUrl' | 'repository'>, runId: number, artifactId: number): string {
  return `${run.serverUrl}/${run.repository.owner}/${run.repository.repo}/actions/runs/${runId}/artifacts/${artifactId}`
}

/**
 * The pull request an event file names, whatever the event (pull_request, pull_request_target, a CI
 * that writes GitHub's payload shape), and the repository's default branch: what `convy-ci publish`
 * takes when --pr and --sha are not given. Null where the file names none.
 */
export function pullRequestOfEventFile(path: string): { number: number; headSha: string; defaultBranch: string | null } | null {
  const payload = readPayload(path)
  const pr = payload.pull_request
  return pr ? { number: pr.number, headSha: pr.head.sha, defaultBranch: payload.repository?.default_branch ?? null } : null
}
