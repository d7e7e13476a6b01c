import { z } from 'zod'
import { tokenScope, type TwirpAnswer } from './github-results.ts'
import type { FakeRun, FakeWorld } from './github-world.ts'

/**
 * The Actions cache service (v2) as the real @actions/cache client uses it: three Twirp methods of
 * CacheService, with the archive itself in the same blob storage as artifacts (one single-shot PUT,
 * one GET). Entries follow GitHub's rules: immutable keys; a run saves into its own scope (its
 * branch, or its pull request) and restores from its own scope and the default branch's; runs of
 * untrusted code (forks, workflow_run, pull_request_target, issue_comment) may only read.
 */
export const CACHE_TWIRP_PREFIX = '/twirp/github.actions.results.api.v1.CacheService/'

const int64 = z.string().regex(/^\d+$/)
const Requests = {
  CreateCacheEntry: z.object({ key: z.string().min(1).max(512), version: z.string().min(1) }).strict(),
  FinalizeCacheEntryUpload: z.object({ key: z.string().min(1).max(512), version: z.string().min(1), size_bytes: int64 }).strict(),
  GetCacheEntryDownloadURL: z.object({ key: z.string().min(1).max(512), restore_keys: z.array(z.string().min(1)).max(9).optional(), version: z.string().min(1) }).strict(),
}
type CacheMethod = keyof typeof Requests

export interface FakeCacheEntry {
  key: string
  version: string
  scope: string
  blobKey: string
  size: number
  finalized: boolean
  /** Order of creation: the newest entry wins a prefix match. */
  serial: number
}

export interface CacheService {
  twirp(method: string, authorization: string | undefined, body: unknown): TwirpAnswer
}

const UNTRUSTED_EVENTS = ['workflow_run', 'pull_request_target', 'issue_comment']

export function cacheService(world: FakeWorld, signedBlobUrl: (blobKey: string, permissions: 'r' | 'cw') => string, violation: (message: string) => void): CacheService {
  let serial = 0
  const ownScope = (run: FakeRun) => (run.event.startsWith('pull_request') ? `refs/pull/${run.headBranch}/merge` : `refs/heads/${run.headBranch}`)
  const readable = (run: FakeRun) => [...new Set([ownScope(run), `refs/heads/${world.defaultBranch}`])]
  const readOnly = (run: FakeRun) => UNTRUSTED_EVENTS.includes(run.event) || run.headRepository !== world.fullName
  const error = (status: number, code: string, msg: string): TwirpAnswer => ({ status, body: { code, msg } })

  return {
    twirp(method, authorization, body) {
      const scope = tokenScope(authorization)
      const run = scope ? world.runs.get(Number(scope.run.replace(/^run-/, ''))) : undefined
      if (!run) return error(401, 'unauthenticated', 'a runtime token of a workflow run is required')
      const schema = Requests[method as CacheMethod]
      if (!schema) {
        violation(`cache twirp: unknown method ${method}`)
        return error(404, 'bad_route', `no method ${method}`)
      }
      const parsed = schema.safeParse(body)
      if (!parsed.success) {
        violation(`cache twirp ${method}: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`)
        return error(400, 'invalid_argument', parsed.error.message)
      }
      const request = parsed.data as { key: string; version: string; size_bytes?: string; restore_keys?: string[] }
      const entries = world.cacheEntries
      switch (method as CacheMethod) {
        case 'CreateCacheEntry': {
          if (readOnly(run)) return { status: 200, body: { ok: false, signed_upload_url: '', message: `cache write denied: ${run.event} runs of this repository get a read-only cache token` } }
          if (entries.some((e) => e.key === request.key && e.version === request.version && e.scope === ownScope(run))) {
            return { status: 200, body: { ok: false, signed_upload_url: '', message: `an entry with key ${request.key} exists` } }
          }
          const entry: FakeCacheEntry = { key: request.key, version: request.version, scope: ownScope(run), blobKey: `cache-${world.id()}`, size: 0, finalized: false, serial: ++serial }
          entries.push(entry)
          world.blobs.set(entry.blobKey, { blocks: new Map(), data: null, contentType: null, fileName: 'cache.tzst' })
          return { status: 200, body: { ok: true, signed_upload_url: signedBlobUrl(entry.blobKey, 'cw') } }
        }
        case 'FinalizeCacheEntryUpload': {
          const entry = entries.find((e) => e.key === request.key && e.version === request.version && e.scope === ownScope(run) && !e.finalized)
          if (!entry) return { status: 200, body: { ok: false, entry_id: '0', message: `no entry ${request.key} being uploaded` } }
          const data = world.blobs.get(entry.blobKey)?.data
          if (!data) return { status: 200, body: { ok: false, entry_id: '0', message: 'nothing was uploaded' } }
          if (String(data.length) !== request.size_bytes) violation(`cache twirp FinalizeCacheEntryUpload: size_bytes ${request.size_bytes}, but ${data.length} bytes were uploaded`)
          Object.assign(entry, { finalized: true, size: data.length })
          return { status: 200, body: { ok: true, entry_id: String(entry.serial) } }
        }
        case 'GetCacheEntryDownloadURL': {
          const candidates = entries.filter((e) => e.finalized && e.version === request.version)
          const newestIn = (scopeName: string, matches: (key: string) => boolean) =>
            candidates.filter((e) => e.scope === scopeName && matches(e.key)).sort((a, b) => b.serial - a.serial)[0]
          const lookups: ((key: string) => boolean)[] = [(key) => key === request.key, ...(request.restore_keys ?? []).map((prefix) => (key: string) => key.startsWith(prefix))]
          for (const matches of lookups) {
            for (const scopeName of readable(run)) {
              const found = newestIn(scopeName, matches)
              if (found) return { status: 200, body: { ok: true, signed_download_url: signedBlobUrl(found.blobKey, 'r'), matched_key: found.key } }
            }
          }
          return { status: 200, body: { ok: false, signed_download_url: '', matched_key: '' } }
        }
      }
    },
  }
}
