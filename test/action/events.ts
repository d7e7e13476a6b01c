import type { FakeWorld } from '../fakes/github-world.ts'

/**
 * Event payloads as GitHub sends them to a workflow, trimmed to the fields a consumer can rely on
 * (the full payloads carry far more; nothing here is invented).
 */
function repository(world: FakeWorld) {
  return { id: 1, name: world.repo, full_name: world.fullName, default_branch: world.defaultBranch, owner: { login: world.owner }, private: false }
}

export function pushEvent(world: FakeWorld, sha: string, before = '0'.repeat(40)) {
  return { ref: `refs/heads/${world.defaultBranch}`, before, after: sha, repository: repository(world), pusher: { name: 'octocat' }, sender: { login: 'octocat' } }
}

/** A merge queue asks for the required checks on the commit it made: the queue's branch head. */
export function mergeGroupEvent(world: FakeWorld, group: { headSha: string; headRef: string; baseSha: string }) {
  return {
    action: 'checks_requested',
    merge_group: {
      head_sha: group.headSha,
      head_ref: `refs/heads/${group.headRef}`,
      base_sha: group.baseSha,
      base_ref: `refs/heads/${world.defaultBranch}`,
      head_commit: { id: group.headSha, tree_id: 'f'.repeat(40), message: 'Merge pull request #12', timestamp: world.now(), author: { name: 'octocat', email: 'octocat@example.com' }, committer: { name: 'GitHub', email: 'noreply@github.com' } },
    },
    repository: repository(world),
    sender: { login: 'octocat' },
  }
}

export interface PullRequestShape {
  number: number
  headSha: string
  headRef: string
  /** owner/name of a fork; the repository itself when unset. */
  fork?: string
}

export function pullRequestEvent(world: FakeWorld, pr: PullRequestShape) {
  const head = pr.fork ?? world.fullName
  return {
    action: 'synchronize',
    number: pr.number,
    pull_request: {
      number: pr.number,
      state: 'open',
      head: { ref: pr.headRef, sha: pr.headSha, repo: { full_name: head, fork: head !== world.fullName } },
      base: { ref: world.defaultBranch, sha: 'b'.repeat(40), repo: { full_name: world.fullName } },
    },
    repository: repository(world),
    sender: { login: head.split('/')[0] },
  }
}

export function workflowRunEvent(world: FakeWorld, run: { id: number; workflowId: number; event: string; headSha: string; headBranch: string; headRepository: string }, sameRepoPulls: number[] = []) {
  return {
    action: 'completed',
    workflow_run: {
      id: run.id,
      workflow_id: run.workflowId,
      name: 'convy',
      event: run.event,
      status: 'completed',
      conclusion: 'success',
      head_sha: run.headSha,
      head_branch: run.headBranch,
      head_repository: { full_name: run.headRepository },
      pull_requests: sameRepoPulls.map((number) => ({ number, head: { sha: run.headSha }, base: { ref: world.defaultBranch } })),
    },
    repository: repository(world),
  }
}
