import addFormats from 'ajv-formats'
import { readFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { OpenAPIBackend, type Document } from 'openapi-backend'

/**
 * GitHub's REST API description (@octokit/openapi, the one octokit's types are generated from), loaded
 * once per process: the fake GitHub validates every request it gets and every answer it gives against
 * it, so the fake cannot drift from GitHub. Its examples are the fake's answer templates.
 */
let loading: Promise<OpenAPIBackend> | undefined

export function githubOpenApi(): Promise<OpenAPIBackend> {
  loading ??= load()
  return loading
}

async function load(): Promise<OpenAPIBackend> {
  // Read the one file: the package's index loads every variant (hundreds of MB).
  const file = createRequire(import.meta.url).resolve('@octokit/openapi/generated/api.github.com.json')
  const definition = JSON.parse(await readFile(file, 'utf8')) as Document
  const api = new OpenAPIBackend({
    definition,
    quick: true,
    strict: false,
    validate: true,
    customizeAjv: (ajv) => {
      // A CommonJS module: its default export is the module object, whose own `default` is the plugin.
      addFormats.default(ajv)
      for (const keyword of ['x-github', 'x-octokit', 'x-multi-segment']) ajv.addKeyword(keyword)
      return ajv
    },
  })
  await api.init()
  return api
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
