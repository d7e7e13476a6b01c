import { createHash, randomBytes } from 'node:crypto'
import { z } from 'zod'
import type { FakeArtifact, FakeWorld } from './github-world.ts'

/**
 * The Actions results service as the real @actions/artifact client uses it: the five Twirp methods of
 * ArtifactService (JSON, proto field names, int64 as strings) and the blob storage its signed URLs
 * point at (Azure block blobs: PUT block, PUT block list, single-shot PUT, GET). Requests are checked
 * strictly: a field the client does not send, or sends in another shape, is a violation.
 */
export const TWIRP_PREFIX = '/twirp/github.actions.results.api.v1.ArtifactService/'
export const BLOB_PREFIX = '/devstoreaccount1/artifacts/'

const ids = { workflow_run_backend_id: z.string().min(1), workflow_job_run_backend_id: z.string().min(1) }
const int64 = z.string().regex(/^\d+$/)
const Requests = {
  CreateArtifact: z.object({ ...ids, name: z.string().min(1), version: z.literal(7), mime_type: z.string().optional(), expires_at: z.iso.datetime().optional() }).strict(),
  FinalizeArtifact: z.object({ ...ids, name: z.string().min(1), size: int64, hash: z.string().regex(/^sha256:[0-9a-f]{64}$/).optional() }).strict(),
  ListArtifacts: z.object({ ...ids, name_filter: z.string().optional(), id_filter: int64.optional() }).strict(),
  GetSignedArtifactURL: z.object({ ...ids, name: z.string().min(1) }).strict(),
  DeleteArtifact: z.object({ ...ids, name: z.string().min(1) }).strict(),
}
export type TwirpMethod = keyof typeof Requests

export interface TwirpAnswer {
  status: number
  body: unknown
}

export interface ResultsService {
  twirp(method: string, authorization: string | undefined, body: unknown): TwirpAnswer
  blobUrl(artifact: FakeArtifact): string
  /** A signed address of a blob: `r` to read, `cw` to create and write. */
  signedBlobUrl(blobKey: string, permissions: 'r' | 'cw'): string
  /** Handles a blob request; false when the path is not a blob's. */
  blob(method: string, url: URL, headers: Record<string, string | string[] | undefined>, body: Buffer): BlobAnswer
}

export interface BlobAnswer {
  status: number
  headers: Record<string, string>
  body?: Uint8Array
}

/** `Actions.Results:<run>:<job>` scopes, as the runner's token carries them; the backend ids name runs. */
export function runtimeToken(runId: number, job: string): string {
  const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url')
  return `${part({ alg: 'none', typ: 'JWT' })}.${part({ scp: `Actions.GenericRead:x Actions.Results:run-${runId}:job-${job}` })}.fake`
}

/** The run and job a runtime token was issued to, from its `Actions.Results` scope; null without one. */
export function tokenScope(authorization: string | undefined): { run: string; job: string } | null {
  const token = /^Bearer (.+)$/.exec(authorization ?? '')?.[1]
  const payload = token?.split('.')[1]
  if (!payload) return null
  const scp = (JSON.parse(Buffer.from(payload, 'base64url').toString()) as { scp?: string }).scp ?? ''
  const scope = scp.split(' ').find((s) => s.startsWith('Actions.Results:'))?.split(':')
  return scope?.length === 3 ? { run: scope[1]!, job: scope[2]! } : null
}

export function resultsService(world: FakeWorld, base: () => string, violation: (message: string) => void, refuseUploads: () => boolean = () => false): ResultsService {
  const signature = randomBytes(8).toString('hex')

  const runOf = (backendId: string) => world.runs.get(Number(backendId.replace(/^run-/, '')))
  const listed = (a: FakeArtifact) => ({
    workflow_run_backend_id: `run-${a.runId}`,
    workflow_job_run_backend_id: a.jobBackendId,
    database_id: String(a.id),
    name: a.name,
    size: String(a.size),
    created_at: a.createdAt,
    ...(a.digest ? { digest: a.digest } : {}),
  })
  const twirpError = (status: number, code: string, msg: string): TwirpAnswer => ({ status, body: { code, msg } })

  return {
    blobUrl: (artifact) => `${base()}${BLOB_PREFIX}${artifact.blobKey}?sv=2025-01-05&sr=b&sp=r&sig=${signature}`,
    signedBlobUrl: (blobKey, permissions) => `${base()}${BLOB_PREFIX}${blobKey}?sv=2025-01-05&sr=b&sp=${permissions}&sig=${signature}`,

    twirp(method, authorization, body) {
      const scope = tokenScope(authorization)
      if (!scope) return twirpError(401, 'unauthenticated', 'a runtime token with an Actions.Results scope is required')
      const schema = Requests[method as TwirpMethod]
      if (!schema) {
        violation(`twirp: unknown method ${method}`)
        return twirpError(404, 'bad_route', `no method ${method}`)
      }
      const parsed = schema.safeParse(body)
      if (!parsed.success) {
        violation(`twirp ${method}: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`)
        return twirpError(400, 'invalid_argument', parsed.error.message)
      }
      const request = parsed.data as z.infer<(typeof Requests)['ListArtifacts']> & { name?: string; size?: string; hash?: string; mime_type?: string; expires_at?: string }
      // Uploads belong to the token's own job; reading and deleting name the artifact's job, which
      // may be another job of the same run (a merge job reading its shards).
      const ownJob = method === 'CreateArtifact' || method === 'FinalizeArtifact' || method === 'ListArtifacts'
      if (request.workflow_run_backend_id !== scope.run || (ownJob && request.workflow_job_run_backend_id !== scope.job)) {
        violation(`twirp ${method}: backend ids ${request.workflow_run_backend_id}/${request.workflow_job_run_backend_id} are not the token's ${scope.run}/${scope.job}`)
        return twirpError(403, 'permission_denied', 'backend ids do not match the token')
      }
      const run = runOf(scope.run)
      if (!run) return twirpError(404, 'not_found', `no workflow run ${scope.run}`)
      const inRun = [...world.artifacts.values()].filter((a) => a.runId === run.id)
      switch (method as TwirpMethod) {
        case 'CreateArtifact': {
          if (refuseUploads()) return twirpError(403, 'permission_denied', 'artifact storage is not available to this job')
          if (inRun.some((a) => a.name === request.name)) return twirpError(409, 'already_exists', 'Conflict: an artifact with this name already exists on the workflow run')
          const created = world.now()
          const artifact: FakeArtifact = {
            id: world.id(),
            runId: run.id,
            jobBackendId: scope.job,
            name: request.name!,
            mimeType: request.mime_type ?? 'application/zip',
            size: 0,
            digest: null,
            blobKey: `${run.id}-${randomBytes(6).toString('hex')}`,
            createdAt: created,
            expiresAt: request.expires_at ?? new Date(Date.parse(created) + 90 * 86_400_000).toISOString(),
            finalized: false,
            expired: false,
          }
          world.artifacts.set(artifact.id, artifact)
          const fileName = artifact.mimeType === 'application/zip' ? `${artifact.name}.zip` : artifact.name
          world.blobs.set(artifact.blobKey, { blocks: new Map(), data: null, contentType: null, fileName })
          return { status: 200, body: { ok: true, signed_upload_url: this.signedBlobUrl(artifact.blobKey, 'cw') } }
        }
        case 'FinalizeArtifact': {
          const artifact = inRun.find((a) => a.name === request.name && !a.finalized)
          if (!artifact) return twirpError(404, 'not_found', `no artifact ${request.name} being uploaded`)
          const data = world.blobs.get(artifact.blobKey)?.data
          if (!data) return twirpError(400, 'failed_precondition', 'nothing was uploaded')
          if (String(data.length) !== request.size) violation(`twirp FinalizeArtifact: size ${request.size}, but ${data.length} bytes were uploaded`)
          const digest = `sha256:${createHash('sha256').update(data).digest('hex')}`
          if (request.hash && request.hash !== digest) violation(`twirp FinalizeArtifact: hash ${request.hash}, but the upload's is ${digest}`)
          Object.assign(artifact, { finalized: true, size: data.length, digest: request.hash ?? null })
          return { status: 200, body: { ok: true, artifact_id: String(artifact.id) } }
        }
        case 'ListArtifacts': {
          const found = inRun.filter((a) => a.finalized && !a.expired && (!request.name_filter || a.name === request.name_filter) && (!request.id_filter || String(a.id) === request.id_filter))
          return { status: 200, body: { artifacts: found.map(listed) } }
        }
        case 'GetSignedArtifactURL': {
          const artifact = inRun.find((a) => a.name === request.name && a.finalized && a.jobBackendId === request.workflow_job_run_backend_id)
          return artifact ? { status: 200, body: { signed_url: this.blobUrl(artifact) } } : twirpError(404, 'not_found', `no artifact ${request.name}`)
        }
        case 'DeleteArtifact': {
          const artifact = inRun.find((a) => a.name === request.name && a.finalized && a.jobBackendId === request.workflow_job_run_backend_id)
          if (!artifact) return twirpError(404, 'not_found', `no artifact ${request.name}`)
          world.artifacts.delete(artifact.id)
          return { status: 200, body: { ok: true, artifact_id: String(artifact.id) } }
        }
      }
    },

    blob(method, url, headers, body): BlobAnswer {
      const blob = world.blobs.get(decodeURIComponent(url.pathname.slice(BLOB_PREFIX.length)))
      if (!blob || url.searchParams.get('sig') !== signature) return { status: 403, headers: { 'x-ms-error-code': 'AuthenticationFailed' } }
      const done = { 'x-ms-request-id': randomBytes(8).toString('hex'), etag: `"0x${randomBytes(6).toString('hex')}"`, 'x-ms-request-server-encrypted': 'true' }
      const comp = url.searchParams.get('comp')
      if (method === 'PUT' && comp === 'block') {
        blob.blocks.set(url.searchParams.get('blockid') ?? '', body)
        return { status: 201, headers: done }
      }
      if (method === 'PUT' && comp === 'blocklist') {
        const order = [...body.toString('utf8').matchAll(/<(?:Latest|Uncommitted|Committed)>([^<]*)<\//g)].map((m) => m[1]!)
        if (order.some((id) => !blob.blocks.has(id))) violation('blob: the block list names a block that was not uploaded')
        blob.data = Buffer.concat(order.map((id) => blob.blocks.get(id) ?? Buffer.alloc(0)))
        blob.contentType = String(headers['x-ms-blob-content-type'] ?? 'application/octet-stream')
        return { status: 201, headers: done }
      }
      if (method === 'PUT' && comp === null) {
        if (headers['x-ms-blob-type'] !== 'BlockBlob') violation('blob: a single-shot PUT without x-ms-blob-type: BlockBlob')
        blob.data = body
        blob.contentType = String(headers['x-ms-blob-content-type'] ?? headers['content-type'] ?? 'application/octet-stream')
        return { status: 201, headers: done }
      }
      if ((method === 'GET' || method === 'HEAD') && blob.data) {
        return {
          status: 200,
          headers: { 'content-type': blob.contentType ?? 'application/octet-stream', 'content-length': String(blob.data.length), 'content-disposition': `attachment; filename="${blob.fileName}"` },
          body: method === 'GET' ? blob.data : Buffer.alloc(0),
        }
      }
      violation(`blob: unexpected ${method} ${url.search}`)
      return { status: 400, headers: {} }
    },
  }
}
