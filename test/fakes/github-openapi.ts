import addFormats from 'ajv-formats'
import { createHash } from 'node:crypto'
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { mkdir, readFile, readdir, rename, rm, writeFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { OpenAPIBackend, type Document } from 'openapi-backend'

/**
 * GitHub's REST API description (@octokit/openapi, the one octokit's types are generated from), loaded
 * once per process: the fake GitHub validates every request it gets and every answer it gives against
 * it, so the fake cannot drift from GitHub. Its examples are the fake's answer templates.
 *
 * The description is 13 MB, and parsing and dereferencing it took about a CPU second in every test
 * process that starts the fake. So what is loaded is the description cut down to what the fake can
 * use (see `reduceDescription`): the operations it serves whole, with every component they refer to,
 * and each other operation of GitHub's as its path, method and operationId only. That cut is made
 * once and kept in node_modules/.cache, under a name made of the package's version, the fake's
 * operations and this file's text, so a new description, another operation or another cut makes a
 * new one.
 */
const loading = new Map<string, Promise<OpenAPIBackend>>()

/** The description for a fake that serves these operations (GitHub's operationIds). */
export function githubOpenApi(operations: readonly string[]): Promise<OpenAPIBackend> {
  const sorted = [...new Set(operations)].sort()
  const key = sorted.join('\n')
  if (!loading.has(key)) loading.set(key, loadGitHubOpenApi(sorted))
  return loading.get(key)!
}

const require = createRequire(import.meta.url)
const CACHE = fileURLToPath(new URL('../../node_modules/.cache/convy-ci-github-openapi/', import.meta.url))
/** This file's text, part of every cached thing's name: a change to how they are made makes new ones. */
const LOADER_TEXT = readFileSync(fileURLToPath(import.meta.url))

/** A new instance each call, its validators compiled anew or read from the cache: githubOpenApi shares one. */
export async function loadGitHubOpenApi(operations: readonly string[]): Promise<OpenAPIBackend> {
  const api = new OpenAPIBackend({
    definition: await reducedDescription(operations),
    quick: true,
    strict: false,
    validate: true,
    // Each validator's source is kept, so that it can be cached (see cachedCompile).
    ajvOpts: { code: { source: true } },
    customizeAjv: (ajv) => {
      // Standalone code names the formats by where they are loaded from: said in openapi-backend's
      // Ajv's own code template (ajv-formats would say it in its own copy's, which that Ajv prints as JSON).
      ajv.opts.code.formats = ajvCode`require("ajv-formats/dist/formats").fullFormats`
      // A CommonJS module: its default export is the module object, whose own `default` is the plugin.
      addFormats.default(ajv)
      for (const keyword of ['x-github', 'x-octokit', 'x-multi-segment']) ajv.addKeyword(keyword)
      const compile = ajv.compile.bind(ajv)
      ajv.compile = ((schema: object) => cachedCompile(ajv, compile, schema)) as typeof ajv.compile
      return ajv
    },
  })
  await api.init()
  fixRoutes(api)
  return api
}

/**
 * openapi-backend's router flattens every operation of the description anew, and makes a regular
 * expression of every path, on each request it matches and each operation it looks up: with
 * GitHub's 1,223 operations that was most of the CPU a test process spent on the fake's requests.
 * The description does not change once loaded, so the operations are flattened once and their
 * patterns made once; the matching is the router's own (router.js matchOperation): the exact path
 * first, then the templates that match, most literal characters first, the first with the method.
 */
function fixRoutes(api: OpenAPIBackend): void {
  const router = api.router
  const operations = router.getOperations()
  const byId = new Map<string | undefined, (typeof operations)[number]>()
  for (const operation of operations) if (!byId.has(operation.operationId)) byId.set(operation.operationId, operation)
  const patterns = operations.map((operation) => ({
    operation,
    pattern: new RegExp(`^${operation.path.replace(/\{[^}]+\}/g, '\0').split('\0').map((literal) => literal.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('[^/]+')}$`),
    literal: operation.path.replace(/\{.*?\}/g, '').length,
  }))
  router.getOperations = () => operations
  router.getOperation = (operationId) => byId.get(operationId)
  router.matchOperation = ((request: Parameters<typeof router.matchOperation>[0], strict?: boolean) => {
    const { path, method } = router.normalizeRequest(request)
    const fail = (message: string) => {
      if (strict) throw new Error(message)
      return undefined
    }
    if (!(router as unknown as { isUnderApiRoot(path: string): boolean }).isUnderApiRoot(path)) return fail('404-notFound: no route matches request')
    const normalized = router.normalizePath(path)
    const exact = operations.find((operation) => operation.path === normalized && operation.method === method)
    if (exact) return exact
    const matching = patterns.filter(({ pattern }) => pattern.test(normalized))
    if (!matching.length) return fail('404-notFound: no route matches request')
    // A stable sort, as lodash's orderBy.
    const match = matching.sort((a, b) => b.literal - a.literal).find(({ operation }) => operation.method === method)
    return match ? match.operation : fail('405-methodNotAllowed: this method is not registered for the route')
  }) as typeof router.matchOperation
}

// openapi-backend validates with its own copy of Ajv; standalone code is that copy's documented
// way to keep a compiled validator (https://ajv.js.org/standalone.html).
// The parts of openapi-backend's Ajv used here (its types are that copy's, not the root's ajv@6).
type Ajv = Parameters<NonNullable<ConstructorParameters<typeof OpenAPIBackend>[0]['customizeAjv']>>[0]
type AnyValidateFunction = ReturnType<Ajv['compile']>
const backendRequire = createRequire(require.resolve('openapi-backend'))
const ajvVersion = (JSON.parse(readFileSync(backendRequire.resolve('ajv/package.json'), 'utf8')) as { version: string }).version
const { _: ajvCode } = backendRequire('ajv') as { _: (strings: TemplateStringsArray) => NonNullable<Ajv['opts']['code']['formats']> }
const { default: standaloneCode } = backendRequire('ajv/dist/standalone') as { default: (ajv: Ajv, validate: AnyValidateFunction) => string }
const VALIDATORS = join(CACHE, 'validators')

/**
 * Ajv compiles every request and answer schema the fake meets into a validating function, the first
 * time it meets it, in every test process: GitHub's answer schemas are large, and that was most of
 * the CPU the fake spent in a test file (2 s in test/action/comment-limit). The function's source
 * (Ajv's standalone code) is kept in node_modules/.cache under a hash of the schema, the Ajv
 * options that shape it, Ajv's version and this file's text, and later processes load it instead of compiling again: the
 * same code Ajv would generate. A schema whose code cannot stand alone is compiled each time.
 */
function cachedCompile(ajv: Ajv, compile: (schema: object) => AnyValidateFunction, schema: object): AnyValidateFunction {
  // The options that change the code: openapi-backend sets coerceTypes for parameters and headers.
  const { coerceTypes, useDefaults, removeAdditional, allErrors, strict } = ajv.opts
  const key = createHash('sha256').update(JSON.stringify([ajvVersion, { coerceTypes, useDefaults, removeAdditional, allErrors, strict }, schema])).update(LOADER_TEXT).digest('hex').slice(0, 32)
  const file = join(VALIDATORS, `${key}.cjs`)
  let source: string | undefined
  try {
    source = readFileSync(file, 'utf8')
  } catch {
    // Not cached yet.
  }
  if (source !== undefined) {
    const module = { exports: {} as { default?: AnyValidateFunction } }
    new Function('require', 'module', 'exports', source)(backendRequire, module, module.exports)
    if (module.exports.default) return module.exports.default
  }
  const validate = compile(schema)
  try {
    const code = standaloneCode(ajv, validate)
    // Written whole and renamed into place: test files run several at once.
    mkdirSync(VALIDATORS, { recursive: true })
    const temporary = `${file}.${process.pid}.tmp`
    writeFileSync(temporary, code)
    renameSync(temporary, file)
  } catch {
    // Not cacheable (or node_modules is read-only): compiled again next time.
  }
  return validate
}

/** The cut-down description from the cache, or made from the package's file and cached. */
export async function reducedDescription(operations: readonly string[]): Promise<Document> {
  const { version } = JSON.parse(await readFile(require.resolve('@octokit/openapi/package.json'), 'utf8')) as { version: string }
  // Named by the operations as a set: githubOpenApi passes them sorted, openapi-routes.test.ts as
  // written, and two names for one cut made each caller remake it and remove the other's every time.
  const hash = createHash('sha256')
    .update([...new Set(operations)].sort().join('\n'))
    .update('\0')
    .update(LOADER_TEXT)
    .digest('hex')
    .slice(0, 16)
  const name = `api.github.com-${version}-${hash}.json`
  const file = join(CACHE, name)
  try {
    return JSON.parse(await readFile(file, 'utf8')) as Document
  } catch {
    // Not made yet (or cut short): make it.
  }
  // Read the one file: the package's index loads every variant (hundreds of MB).
  const full = JSON.parse(await readFile(require.resolve('@octokit/openapi/generated/api.github.com.json'), 'utf8')) as Document
  const reduced = reduceDescription(full, operations)
  // Test files run several at once and may all make it: each writes its own file and renames it
  // into place, so a reader sees a whole file or none. Cuts of other versions or lists are removed.
  // Where node_modules cannot be written, each process makes its own cut, as slowly as before.
  const temporary = join(CACHE, `${name}.${process.pid}.tmp`)
  try {
    await mkdir(CACHE, { recursive: true })
    await writeFile(temporary, JSON.stringify(reduced))
    await rename(temporary, file)
    // (validators/ stays: its files are named by their schemas; npm ci empties the whole cache.)
    for (const other of await readdir(CACHE)) if (other !== name && other !== 'validators' && !other.endsWith('.tmp')) await rm(join(CACHE, other), { force: true })
  } catch {
    await rm(temporary, { force: true }).catch(() => undefined)
  }
  return reduced
}

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const

/**
 * The description as the fake needs it: every path and method of GitHub's, so a request matches the
 * same operation as in the whole description (a route GitHub does not have matches none; one the
 * fake does not serve matches its operation, which the server reports as not served); the served
 * operations whole, and the components they refer to, directly or through other components, so
 * their requests, answers and examples are GitHub's own. Webhooks, tags and the rest are left out.
 */
export function reduceDescription(full: Document, served: readonly string[]): Document {
  const wanted = new Set(served)
  const paths: Record<string, Record<string, unknown>> = {}
  const found = new Set<string>()
  for (const [path, item] of Object.entries(full.paths ?? {})) {
    const kept: Record<string, unknown> = {}
    const whole = item as Record<string, { operationId?: string } | undefined>
    for (const method of METHODS) {
      const operation = whole[method]
      if (!operation?.operationId) continue
      if (wanted.has(operation.operationId)) {
        found.add(operation.operationId)
        kept[method] = operation
      } else {
        // Its parameters, so the path's are known and checked as GitHub's; its body and answers
        // are of no use to a fake that answers it with a violation anyway.
        const { parameters } = operation as { parameters?: unknown }
        kept[method] = { operationId: operation.operationId, ...(parameters ? { parameters } : {}), responses: {} }
      }
    }
    if (whole.parameters) kept.parameters = whole.parameters
    paths[path] = kept
  }
  const missing = served.filter((id) => !found.has(id))
  if (missing.length) throw new Error(`GitHub's REST description has no operation ${missing.join(', ')}, which the fake serves`)

  const components = (full.components ?? {}) as Record<string, Record<string, unknown>>
  const keptComponents: Record<string, Record<string, unknown>> = {}
  const pending: unknown[] = [paths]
  const seen = new Set<string>()
  while (pending.length) {
    const value = pending.pop()
    if (Array.isArray(value)) pending.push(...(value as unknown[]))
    else if (value && typeof value === 'object') {
      for (const [key, inner] of Object.entries(value)) {
        if (key !== '$ref' || typeof inner !== 'string') {
          pending.push(inner)
          continue
        }
        if (seen.has(inner)) continue
        seen.add(inner)
        const match = /^#\/components\/([^/]+)\/([^/]+)$/.exec(inner)
        const section = match ? components[match[1]!] : undefined
        const name = match ? decodeURIComponent(match[2]!).replace(/~1/g, '/').replace(/~0/g, '~') : ''
        if (!section || !(name in section)) throw new Error(`GitHub's REST description: cannot follow $ref ${inner}`)
        ;(keptComponents[match![1]!] ??= {})[name] = section[name]
        pending.push(section[name])
      }
    }
  }
  return { openapi: full.openapi, info: full.info, paths, components: keptComponents } as Document
}

const templates = new Map<string, unknown>()

/**
 * GitHub's own example answer of an operation, a fresh copy each time. A few examples lack fields the
 * schema requires; `patch` fills them in so the templates validate.
 */
export function exampleAnswer<T = Record<string, unknown>>(api: OpenAPIBackend, operationId: string): T {
  if (!templates.has(operationId)) {
    const { mock } = api.mockResponseForOperation(operationId)
    templates.set(operationId, PATCHES[operationId]?.(mock) ?? mock)
  }
  return structuredClone(templates.get(operationId)) as T
}

const PATCHES: Record<string, (mock: unknown) => unknown> = {
  'repos/get': (mock) => {
    const repo = mock as Record<string, Record<string, unknown> | null>
    for (const part of [repo.source, repo.parent]) if (part) part.language = null
    return { ...repo, language: null }
  },
  'pulls/get': (mock) => ({ ...(mock as object), requested_teams: [] }),
}
