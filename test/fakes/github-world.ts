import { createHash } from 'node:crypto'
import type { FakeCacheEntry } from './github-cache.ts'

/**
 * The state behind the fake GitHub: one repository's workflow runs, their artifacts (and the blobs
 * holding them), pull requests, comments and check runs. The REST API and the Actions results service
 * read and change the same state, as on GitHub: an artifact uploaded by one run is listed, through
 * REST, to a later one.
 */
export interface FakeRun {
  id: number
  workflowId: number
  event: string
  headBranch: string
  headSha: string
  /** owner/name of the repository the run's code came from (a fork for fork pull requests). */
  headRepository: string
  status: 'in_progress' | 'completed'
  conclusion: 'success' | 'failure' | null
  createdAt: string
}

export interface FakeArtifact {
  id: number
  runId: number
  jobBackendId: string
  name: string
  mimeType: string
  size: number
  digest: string | null
  blobKey: string
  createdAt: string
  expiresAt: string
  finalized: boolean
  expired: boolean
}

export interface FakeBlob {
  blocks: Map<string, Buffer>
  data: Buffer | null
  contentType: string | null
  fileName: string
}

export interface FakeComment {
  id: number
  issueNumber: number
  body: string
  login: string
  createdAt: string
  updatedAt: string
}

export interface FakeCheckRun {
  id: number
  name: string
  headSha: string
  status: string
  conclusion: string | null
  title: string | null
  summary: string | null
  detailsUrl: string | null
}

export interface FakePull {
  number: number
  headSha: string
  headRef: string
  headRepository: string | null
  baseRef: string
}

export const WORKFLOW = { id: 161335, path: '.github/workflows/convy.yml', name: 'convy' }

export class FakeWorld {
  readonly runs = new Map<number, FakeRun>()
  readonly artifacts = new Map<number, FakeArtifact>()
  readonly blobs = new Map<string, FakeBlob>()
  readonly comments: FakeComment[] = []
  readonly checkRuns: FakeCheckRun[] = []
  readonly pulls = new Map<number, FakePull>()
  /** The repository's files at a commit, as the contents API serves them: ref → path → text. */
  readonly files = new Map<string, Map<string, string>>()
  /** Actions cache entries, in the order they were created. */
  readonly cacheEntries: FakeCacheEntry[] = []
  private nextId = 1000
  private clock = Date.parse('2026-11-20T10:00:00Z')

  constructor(
    readonly owner: string,
    readonly repo: string,
    readonly defaultBranch: string,
  ) {}

  get fullName(): string {
    return `${this.owner}/${this.repo}`
  }

  id(): number {
    return this.nextId++
  }

  /** Time moves a minute per event, so "newest" is well defined. */
  now(): string {
    this.clock += 60_000
    return new Date(this.clock).toISOString().replace(/\.\d{3}Z$/, 'Z')
  }

  startRun(run: Partial<FakeRun> & Pick<FakeRun, 'event' | 'headBranch' | 'headSha'>): FakeRun {
    const started: FakeRun = { id: this.id(), workflowId: WORKFLOW.id, headRepository: this.fullName, status: 'in_progress', conclusion: null, createdAt: this.now(), ...run }
    this.runs.set(started.id, started)
    return started
  }

  finishRun(id: number, conclusion: 'success' | 'failure'): void {
    const run = this.runs.get(id)
    if (!run) throw new Error(`no run ${id}`)
    run.status = 'completed'
    run.conclusion = conclusion
  }

  /** Files of the repository at commit `ref` (the base commit's workflow file and convy.yml, say). */
  commitFiles(ref: string, files: Record<string, string>): void {
    const at = this.files.get(ref) ?? new Map<string, string>()
    for (const [path, text] of Object.entries(files)) at.set(path, text)
    this.files.set(ref, at)
  }

  artifactsOf(runId: number): FakeArtifact[] {
    return [...this.artifacts.values()].filter((a) => a.runId === runId && a.finalized)
  }

  /** The bytes of a finished artifact, as uploaded. */
  artifactBytes(artifact: FakeArtifact): Buffer {
    const data = this.blobs.get(artifact.blobKey)?.data
    if (!data) throw new Error(`artifact ${artifact.name} has no data`)
    return data
  }

  /** An artifact as if a run had uploaded it, for runs the tests make up. */
  addArtifact(runId: number, name: string, data: Buffer, options: { expired?: boolean; mimeType?: string } = {}): FakeArtifact {
    const createdAt = this.now()
    const artifact: FakeArtifact = {
      id: this.id(),
      runId,
      jobBackendId: 'job-made-up',
      name,
      mimeType: options.mimeType ?? 'application/zip',
      size: data.length,
      digest: `sha256:${createHash('sha256').update(data).digest('hex')}`,
      blobKey: `${runId}-made-up-${name}`,
      createdAt,
      expiresAt: createdAt,
      finalized: true,
      expired: options.expired ?? false,
    }
    this.artifacts.set(artifact.id, artifact)
    this.blobs.set(artifact.blobKey, { blocks: new Map(), data, contentType: artifact.mimeType, fileName: `${name}.zip` })
    return artifact
  }

  commentsOn(issueNumber: number): FakeComment[] {
    return this.comments.filter((c) => c.issueNumber === issueNumber)
  }
}
