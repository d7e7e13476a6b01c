import { createServer, type IncomingMessage } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { OpenAPIBackend } from 'openapi-backend'
import { githubOpenApi } from './github-openapi.ts'
import { REST_OPERATIONS, restHandlers } from './github-rest.ts'
import { CACHE_TWIRP_PREFIX, cacheService } from './github-cache.ts'
import { BLOB_PREFIX, resultsService, runtimeToken, TWIRP_PREFIX } from './github-results.ts'
import { FakeWorld } from './github-world.ts'

/**
 * A fake GitHub on 127.0.0.1 for the action's end-to-end tests, driven through the real clients
 * (octokit from @actions/github, @actions/artifact): the REST API, validated request by request and
 * answer by answer against GitHub's OpenAPI description, and the Actions results service with its
 * blob storage and its cache service. One server, one port: GITHUB_API_URL and ACTIONS_RESULTS_URL
 * both point at it.
 */
export interface RecordedCall {
  kind: 'rest' | 'twirp' | 'blob'
  method: string
  path: string
  /** The OpenAPI operation (REST) or the Twirp method. */
  operation: string | null
  status: number
}

export interface FakeGitHub {
  url: string
  world: FakeWorld
  /** The REST token the fake accepts (`authorization: token <t>`). */
  token: string
  calls: RecordedCall[]
  /** Every request as it arrived (address and body): what was sent to GitHub, for a search of it all. */
  received: { method: string; url: string; body: Buffer }[]
  /** Requests or answers that GitHub would not send or accept: a test fails if there are any. */
  violations: string[]
  /** A pull request from a fork: the token may read, and every REST write is refused with 403. */
  readOnly: boolean
  /** The results service refuses every new artifact (4xx, which the client does not retry). */
  refuseUploads: boolean
  /** A token without `actions: read`: every REST call about workflow runs and artifacts gets a 403. */
  denyActionsRead: boolean
  runtimeToken(runId: number, job: string): string
  /** REST writes tried (refused or not) since the server started. */
  restWrites(): RecordedCall[]
  close(): Promise<void>
}

export interface FakeGitHubOptions {
  owner?: string
  repo?: string
  defaultBranch?: string
  token?: string
  /**
   * The host name clients address it by (its url, and the addresses it hands out: blobs, pages);
   * default 127.0.0.1. A name that does not resolve to this machine reaches it only through a proxy
   * that looks the name up as 127.0.0.1.
   */
  host?: string
}

export async function startFakeGitHub(options: FakeGitHubOptions = {}): Promise<FakeGitHub> {
  const api = await githubOpenApi(REST_OPERATIONS)
  const world = new FakeWorld(options.owner ?? 'acme', options.repo ?? 'support-bot', options.defaultBranch ?? 'main')
  const token = options.token ?? 'ghs_faketoken0123456789'
  let base = ''
  const calls: RecordedCall[] = []
  const received: FakeGitHub['received'] = []
  const violations: string[] = []
  const results = resultsService(
    world,
    () => base,
    (message) => violations.push(message),
    () => fake.refuseUploads,
  )
  const cache = cacheService(world, (blobKey, permissions) => results.signedBlobUrl(blobKey, permissions), (message) => violations.push(message))
  const rest = restHandlers(world, api, (artifact) => results.blobUrl(artifact))

  const fake: FakeGitHub = {
    url: '',
    world,
    token,
    calls,
    received,
    violations,
    readOnly: false,
    refuseUploads: false,
    denyActionsRead: false,
    runtimeToken,
    restWrites: () => calls.filter((c) => c.kind === 'rest' && c.method !== 'GET' && c.method !== 'HEAD'),
    close: async () => {
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }

  const server = createServer((req, res) => {
    void (async () => {
      const body = await readBody(req)
      const url = new URL(req.url ?? '/', base)
      const method = req.method ?? 'GET'
      received.push({ method, url: url.href, body })
      const record = (kind: RecordedCall['kind'], operation: string | null, status: number) => calls.push({ kind, method, path: url.pathname, operation, status })

      const twirpPrefix = [TWIRP_PREFIX, CACHE_TWIRP_PREFIX].find((prefix) => url.pathname.startsWith(prefix))
      if (twirpPrefix) {
        const name = url.pathname.slice(twirpPrefix.length)
        let parsed: unknown
        try {
          parsed = JSON.parse(body.toString('utf8'))
        } catch {
          violations.push(`twirp ${name}: the body is not JSON`)
        }
        const service = twirpPrefix === TWIRP_PREFIX ? results : cache
        const answer = service.twirp(name, req.headers.authorization, parsed)
        record('twirp', name, answer.status)
        res.writeHead(answer.status, { 'content-type': 'application/json' }).end(JSON.stringify(answer.body))
        return
      }
      if (url.pathname.startsWith(BLOB_PREFIX)) {
        const answer = results.blob(method, url, req.headers, body)
        record('blob', null, answer.status)
        res.writeHead(answer.status, answer.headers).end(answer.body)
        return
      }
      const answer = answerRest(api, rest, fake, { method, url, headers: req.headers, body, base }, violations)
      record('rest', answer.operation, answer.status)
      res.writeHead(answer.status, { ...(answer.body === undefined ? {} : { 'content-type': 'application/json; charset=utf-8' }), ...answer.headers })
      res.end(answer.body === undefined ? undefined : JSON.stringify(answer.body))
    })().catch((error: unknown) => {
      violations.push(`the fake itself failed: ${(error as Error).stack ?? String(error)}`)
      if (!res.headersSent) res.writeHead(500).end()
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  base = `http://${options.host ?? '127.0.0.1'}:${(server.address() as AddressInfo).port}`
  fake.url = base
  return fake
}

interface RestRequest {
  method: string
  url: URL
  headers: IncomingMessage['headers']
  body: Buffer
  base: string
}

function answerRest(
  api: OpenAPIBackend,
  handlers: ReturnType<typeof restHandlers>,
  fake: FakeGitHub,
  request: RestRequest,
  violations: string[],
): { operation: string | null; status: number; body?: unknown; headers?: Record<string, string> } {
  const { method, url } = request
  const text = request.body.toString('utf8')
  const body: unknown = text ? JSON.parse(text) : undefined
  const headers = Object.fromEntries(Object.entries(request.headers).filter((entry): entry is [string, string | string[]] => entry[1] !== undefined))
  const query = Object.fromEntries(url.searchParams)
  const openApiRequest = { method: method.toLowerCase(), path: url.pathname, headers, query, body }
  const operation = api.matchOperation(openApiRequest)
  const answer = (status: number, message: string) => ({ status, body: { message, documentation_url: 'https://docs.github.com/rest', status: String(status) } })
  if (!operation?.operationId) {
    violations.push(`rest: GitHub has no ${method} ${url.pathname}`)
    return { operation: null, ...answer(404, 'Not Found') }
  }
  const operationId = operation.operationId
  if (request.headers.authorization !== `token ${fake.token}`) return { operation: operationId, ...answer(401, 'Bad credentials') }
  const validation = api.validateRequest(openApiRequest, operation)
  // A path parameter arrives as text and is coerced, so "161335" satisfies both branches of
  // workflow_id's oneOf [integer, string]: an ambiguity of the description, not a bad request.
  const errors = (validation.errors ?? []).filter((e) => !(e.keyword === 'oneOf' && (e.params as { passingSchemas?: unknown }).passingSchemas != null))
  if (errors.length) {
    violations.push(`rest ${operationId} request: ${JSON.stringify(errors)}`)
    return { operation: operationId, ...answer(422, 'Validation Failed') }
  }
  if (fake.readOnly && method !== 'GET' && method !== 'HEAD') return { operation: operationId, ...answer(403, 'Resource not accessible by integration') }
  if (fake.denyActionsRead && operationId.startsWith('actions/')) return { operation: operationId, ...answer(403, 'Resource not accessible by integration') }
  const handler = (handlers as Record<string, (typeof handlers)[keyof typeof handlers] | undefined>)[operationId]
  if (!handler) {
    violations.push(`rest: the fake does not serve ${operationId}`)
    return { operation: operationId, ...answer(501, 'Not Implemented') }
  }
  const params = api.router.parseRequest(openApiRequest, operation).params ?? {}
  const result = handler({ params, query: url.searchParams, body: (body ?? {}) as Record<string, unknown>, base: request.base, path: url.pathname })
  const documented = Object.keys(operation.responses ?? {}).includes(String(result.status))
  if (documented && result.body !== undefined) {
    const checked = api.validateResponse(result.body, operation, result.status)
    if (!checked.valid) violations.push(`rest ${operationId} ${result.status} answer: ${JSON.stringify(checked.errors)}`)
  }
  return { operation: operationId, ...result }
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = []
  for await (const chunk of req) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks)
}
