import type { OpenAPIBackend } from 'openapi-backend'
import { exampleAnswer } from './github-openapi.ts'
import { WORKFLOW, type FakeArtifact, type FakeCheckRun, type FakeComment, type FakeRun, type FakeWorld } from './github-world.ts'

/**
 * The REST operations the action and the artifact client call, answered from the world's state. Each
 * answer starts from GitHub's own example (so it has every field the schema requires) with the
 * world's values laid over it; the server validates both ways.
 */
export interface RestCall {
  params: Record<string, string>
  query: URLSearchParams
  body: Record<string, unknown>
  /** The fake's own address, for links (pagination, artifacts). */
  base: string
  path: string
}

export interface RestAnswer {
  status: number
  body?: unknown
  headers?: Record<string, string>
}

type Handler = (call: RestCall) => RestAnswer

/**
 * The operations the fake serves (GitHub's operationIds): `restHandlers` answers exactly these, and
 * the OpenAPI description is loaded with these operations whole (github-openapi.ts).
 */
export const REST_OPERATIONS = [
  'repos/get',
  'actions/get-workflow-run',
  'actions/list-workflow-runs',
  'actions/list-workflow-runs-for-repo',
  'actions/list-workflow-run-artifacts',
  'actions/list-artifacts-for-repo',
  'actions/download-artifact',
  'issues/list-comments',
  'issues/create-comment',
  'issues/update-comment',
  'checks/create',
  'pulls/get',
  'repos/get-content',
] as const
export type RestOperation = (typeof REST_OPERATIONS)[number]

/** GitHub's answer to a body over its limit; the OpenAPI description does not say so, GitHub does. */
const COMMENT_LIMIT = 65_536

export function restHandlers(world: FakeWorld, api: OpenAPIBackend, blobUrl: (artifact: FakeArtifact) => string): Record<RestOperation, Handler> {
  const repoPath = (base: string) => `${base}/repos/${world.fullName}`
  const notFound = (): RestAnswer => ({ status: 404, body: { message: 'Not Found', documentation_url: 'https://docs.github.com/rest', status: '404' } })

  const runJson = (run: FakeRun, base: string) => {
    const t = exampleAnswer(api, 'actions/get-workflow-run')
    return {
      ...t,
      id: run.id,
      name: WORKFLOW.name,
      path: WORKFLOW.path,
      workflow_id: run.workflowId,
      head_branch: run.headBranch,
      head_sha: run.headSha,
      event: run.event,
      status: run.status,
      conclusion: run.conclusion,
      run_number: run.id,
      run_attempt: 1,
      created_at: run.createdAt,
      updated_at: run.createdAt,
      run_started_at: run.createdAt,
      pull_requests: [],
      url: `${repoPath(base)}/actions/runs/${run.id}`,
      html_url: `https://github.com/${world.fullName}/actions/runs/${run.id}`,
      head_repository: { ...(t.head_repository as object), full_name: run.headRepository, name: run.headRepository.split('/')[1] },
      repository: { ...(t.repository as object), full_name: world.fullName, name: world.repo },
    }
  }

  const artifactJson = (artifact: FakeArtifact, base: string) => {
    const run = world.runs.get(artifact.runId)!
    const t = exampleAnswer<{ artifacts: Record<string, unknown>[] }>(api, 'actions/list-workflow-run-artifacts').artifacts[0]!
    return {
      ...t,
      id: artifact.id,
      node_id: `MDg6QXJ0aWZhY3Q${artifact.id}`,
      name: artifact.name,
      size_in_bytes: artifact.size,
      url: `${repoPath(base)}/actions/artifacts/${artifact.id}`,
      archive_download_url: `${repoPath(base)}/actions/artifacts/${artifact.id}/zip`,
      expired: artifact.expired,
      created_at: artifact.createdAt,
      updated_at: artifact.createdAt,
      expires_at: artifact.expiresAt,
      ...(artifact.digest ? { digest: artifact.digest } : {}),
      workflow_run: { id: run.id, repository_id: 1, head_repository_id: 1, head_branch: run.headBranch, head_sha: run.headSha },
    }
  }

  const commentJson = (comment: FakeComment, base: string) => {
    const t = exampleAnswer(api, 'issues/create-comment')
    return {
      ...t,
      id: comment.id,
      node_id: `IC_${comment.id}`,
      body: comment.body,
      url: `${repoPath(base)}/issues/comments/${comment.id}`,
      html_url: `https://github.com/${world.fullName}/pull/${comment.issueNumber}#issuecomment-${comment.id}`,
      issue_url: `${repoPath(base)}/issues/${comment.issueNumber}`,
      created_at: comment.createdAt,
      updated_at: comment.updatedAt,
      user: { ...(t.user as object), login: comment.login, type: comment.login.endsWith('[bot]') ? 'Bot' : 'User' },
    }
  }

  const checkJson = (check: FakeCheckRun) => {
    const t = exampleAnswer(api, 'checks/create')
    return {
      ...t,
      id: check.id,
      name: check.name,
      head_sha: check.headSha,
      status: check.status,
      conclusion: check.conclusion,
      details_url: check.detailsUrl,
      html_url: `https://github.com/${world.fullName}/runs/${check.id}`,
      output: { ...(t.output as object), title: check.title, summary: check.summary, text: null },
    }
  }

  const tooLong = (body: unknown): RestAnswer | null =>
    typeof body === 'string' && body.length > COMMENT_LIMIT
      ? { status: 422, body: { message: 'Validation Failed', errors: [{ resource: 'IssueComment', code: 'custom', field: 'body', message: `body is too long (maximum is ${COMMENT_LIMIT} characters)` }], documentation_url: 'https://docs.github.com/rest/issues/comments', status: '422' } }
      : null

  const listRuns = (call: RestCall, workflow: string | null): RestAnswer => {
    const { query } = call
    const runs = [...world.runs.values()]
      .filter((r) => workflow === null || String(r.workflowId) === workflow || WORKFLOW.path.endsWith(`/${workflow}`))
      .filter((r) => !query.get('branch') || r.headBranch === query.get('branch'))
      .filter((r) => !query.get('event') || r.event === query.get('event'))
      .filter((r) => !query.get('status') || r.conclusion === query.get('status') || r.status === query.get('status'))
      .sort((a, b) => b.createdAt.localeCompare(a.createdAt) || b.id - a.id)
    const { items, headers } = paginate(runs, call)
    return { status: 200, body: { total_count: runs.length, workflow_runs: items.map((r) => runJson(r, call.base)) }, headers }
  }

  return {
    'repos/get': () => {
      const t = exampleAnswer(api, 'repos/get')
      return { status: 200, body: { ...t, name: world.repo, full_name: world.fullName, default_branch: world.defaultBranch, owner: { ...(t.owner as object), login: world.owner } } }
    },
    'actions/get-workflow-run': (call) => {
      const run = world.runs.get(Number(call.params.run_id))
      return run ? { status: 200, body: runJson(run, call.base) } : notFound()
    },
    'actions/list-workflow-runs': (call) => listRuns(call, call.params.workflow_id!),
    'actions/list-workflow-runs-for-repo': (call) => listRuns(call, null),
    'actions/list-workflow-run-artifacts': (call) => {
      const name = call.query.get('name')
      const artifacts = world.artifactsOf(Number(call.params.run_id)).filter((a) => !name || a.name === name)
      const { items, headers } = paginate(artifacts, call)
      return { status: 200, body: { total_count: artifacts.length, artifacts: items.map((a) => artifactJson(a, call.base)) }, headers }
    },
    'actions/list-artifacts-for-repo': (call) => {
      const name = call.query.get('name')
      // Newest first, as GitHub lists them.
      const artifacts = [...world.artifacts.values()].filter((a) => a.finalized && (!name || a.name === name)).sort((a, b) => b.id - a.id)
      const { items, headers } = paginate(artifacts, call)
      return { status: 200, body: { total_count: artifacts.length, artifacts: items.map((a) => artifactJson(a, call.base)) }, headers }
    },
    'actions/download-artifact': (call) => {
      const artifact = world.artifacts.get(Number(call.params.artifact_id))
      if (!artifact?.finalized) return notFound()
      if (artifact.expired) return { status: 410, body: { message: 'Artifact has expired', documentation_url: 'https://docs.github.com/rest/actions/artifacts', status: '410' } }
      return { status: 302, headers: { location: blobUrl(artifact) } }
    },
    'issues/list-comments': (call) => {
      const { items, headers } = paginate(world.commentsOn(Number(call.params.issue_number)), call)
      return { status: 200, body: items.map((c) => commentJson(c, call.base)), headers }
    },
    'issues/create-comment': (call) => {
      const refused = tooLong(call.body.body)
      if (refused) return refused
      const at = world.now()
      const comment: FakeComment = { id: world.id(), issueNumber: Number(call.params.issue_number), body: String(call.body.body), login: 'github-actions[bot]', createdAt: at, updatedAt: at }
      world.comments.push(comment)
      return { status: 201, body: commentJson(comment, call.base), headers: { location: `${repoPath(call.base)}/issues/comments/${comment.id}` } }
    },
    'issues/update-comment': (call) => {
      const comment = world.comments.find((c) => c.id === Number(call.params.comment_id))
      if (!comment) return notFound()
      const refused = tooLong(call.body.body)
      if (refused) return refused
      comment.body = String(call.body.body)
      comment.updatedAt = world.now()
      return { status: 200, body: commentJson(comment, call.base) }
    },
    'checks/create': (call) => {
      const output = (call.body.output ?? {}) as { title?: string; summary?: string }
      const check: FakeCheckRun = {
        id: world.id(),
        name: String(call.body.name),
        headSha: String(call.body.head_sha),
        status: String(call.body.status ?? 'queued'),
        conclusion: (call.body.conclusion as string | undefined) ?? null,
        title: output.title ?? null,
        summary: output.summary ?? null,
        detailsUrl: (call.body.details_url as string | undefined) ?? null,
      }
      world.checkRuns.push(check)
      return { status: 201, body: checkJson(check) }
    },
    'repos/get-content': (call) => {
      const path = decodeURIComponent(call.params.path ?? '')
      const ref = call.query.get('ref') ?? world.defaultBranch
      const text = world.files.get(ref)?.get(path)
      if (text === undefined) return notFound()
      const bytes = Buffer.from(text, 'utf8')
      const name = path.split('/').at(-1)!
      const url = `${call.base}/repos/${world.fullName}/contents/${path}?ref=${ref}`
      const html = `https://github.com/${world.fullName}/blob/${ref}/${path}`
      const git = `${call.base}/repos/${world.fullName}/git/blobs/${'0'.repeat(40)}`
      return {
        status: 200,
        body: {
          type: 'file',
          encoding: 'base64',
          size: bytes.length,
          name,
          path,
          // GitHub wraps the base64 at 60 columns.
          content: bytes.toString('base64').replace(/.{60}/g, '$&\n'),
          sha: '0'.repeat(40),
          url,
          git_url: git,
          html_url: html,
          download_url: `https://raw.githubusercontent.com/${world.fullName}/${ref}/${path}`,
          _links: { self: url, git, html },
        },
      }
    },
    'pulls/get': (call) => {
      const pull = world.pulls.get(Number(call.params.pull_number))
      if (!pull) return notFound()
      const t = exampleAnswer<{ head: { repo: object }; base: { repo: object } } & Record<string, unknown>>(api, 'pulls/get')
      return {
        status: 200,
        body: {
          ...t,
          number: pull.number,
          state: 'open',
          head: { ...t.head, sha: pull.headSha, ref: pull.headRef, repo: pull.headRepository ? { ...t.head.repo, full_name: pull.headRepository } : null },
          base: { ...t.base, ref: pull.baseRef, repo: { ...t.base.repo, full_name: world.fullName, name: world.repo } },
        },
      }
    },
  }
}

/** GitHub's paging: per_page (default 30) and page, with a Link header to the next page. */
function paginate<T>(all: readonly T[], call: RestCall): { items: T[]; headers: Record<string, string> } {
  const perPage = Number(call.query.get('per_page') ?? 30)
  const page = Number(call.query.get('page') ?? 1)
  const items = all.slice((page - 1) * perPage, page * perPage)
  if (page * perPage >= all.length) return { items, headers: {} }
  const next = new URLSearchParams(call.query)
  next.set('page', String(page + 1))
  return { items, headers: { link: `<${call.base}${call.path}?${next}>; rel="next"` } }
}
