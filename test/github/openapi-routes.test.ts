import assert from 'node:assert/strict'
import { test } from 'node:test'
import { OpenAPIBackend } from 'openapi-backend'
import { githubOpenApi, reducedDescription } from '../fakes/github-openapi.ts'
import { REST_OPERATIONS } from '../fakes/github-rest.ts'

// The fake GitHub matches a request to its operation with routes made once (github-openapi.ts
// fixRoutes) instead of openapi-backend's router, which remakes them on every request. The two must
// pick the same operation, or the fake would check requests against the wrong part of GitHub's
// description after an upgrade of either: held here against the library's own router on the same
// description, for the paths of the operations it serves and those GitHub's templates share, and
// for routes GitHub does not have.
test("the fake's routes match every request to the operation openapi-backend's own router picks", async () => {
  const definition = await reducedDescription(REST_OPERATIONS)
  const own = new OpenAPIBackend({ definition: structuredClone(definition), quick: true, validate: false })
  await own.init()
  // The library's router flattens the description's 1,223 operations anew on every request (why the
  // fake has its own routes); the description does not change, so that list is kept after its first
  // making. What is compared is still the library's matchOperation: its patterns, order and methods.
  const flatten = own.router.getOperations.bind(own.router)
  let flat: ReturnType<typeof flatten> | undefined
  own.router.getOperations = () => (flat ??= flatten())
  const fixed = await githubOpenApi(REST_OPERATIONS)

  // The paths of the operations the fake serves, and every path that more than one of GitHub's
  // templates match once filled in, where the order of the candidates decides (a path only one
  // template matches cannot differ). Not more: the library's router takes tens of milliseconds a
  // request here, which is why the fake has its own.
  const served = new Set<string>(REST_OPERATIONS)
  const entries = Object.entries(definition.paths ?? {}).map(([template, item]) => ({
    path: template.replace(/\{[^}]+\}/g, '1'),
    pattern: new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}$`),
    methods: Object.entries(item as Record<string, { operationId?: string }>).filter(([method]) => method !== 'parameters'),
  }))
  const ambiguous = (path: string) => entries.filter((entry) => entry.pattern.test(path)).length > 1
  const requests: { method: string; path: string }[] = []
  for (const { path, methods } of entries) {
    if (methods.some(([, operation]) => served.has(operation.operationId ?? ''))) {
      for (const [method] of methods) requests.push({ method, path })
      requests.push({ method: 'trace', path }, { method: 'get', path: `${path}/nothing-here` })
    } else if (ambiguous(path)) requests.push({ method: methods[0]![0], path })
  }
  requests.push({ method: 'get', path: '/no/such/route' }, { method: 'get', path: '/' }, { method: 'get', path: '/repos/acme/support-bot/actions/runs/12/' })

  const picked = (api: OpenAPIBackend, request: { method: string; path: string }) => api.router.matchOperation({ ...request, headers: {} })?.operationId ?? null
  const seen = requests.map((request) => ({ request, own: picked(own, request), fixed: picked(fixed, request) }))
  assert.deepEqual(seen.filter((s) => s.own !== s.fixed).slice(0, 5), [])
  assert.deepEqual(REST_OPERATIONS.filter((id) => !seen.some((s) => s.fixed === id)), [], 'every served operation was asked for')
  assert.ok(seen.filter((s) => s.own === null).length >= 3, 'routes GitHub does not have were asked for too')
})
