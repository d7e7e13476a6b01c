import * as nodeModule from 'node:module'
import { isConvyCiSpecifier } from './public-api.ts'

/**
 * Without esbuild (the action's bundle has no node_modules), Node imports the agent module itself.
 * A resolve hook then sends its `import … from 'convy-ci'` to a data: URL module that re-exports the
 * running convy-ci's API. A hook is process-wide, so it is installed once.
 */
const INSTALLED = Symbol.for('convy-ci.resolve-hook')

interface ResolveResult {
  url: string
  shortCircuit?: boolean
}
type NextResolve = (specifier: string, context: unknown) => ResolveResult
// Node ≥ 22.15 runs hooks in the importing thread (`registerHooks`); @types/node for Node 20 lacks it.
type RegisterHooks = (hooks: { resolve: (specifier: string, context: unknown, next: NextResolve) => ResolveResult }) => unknown

function dataUrl(source: string): string {
  return `data:text/javascript,${encodeURIComponent(source)}`
}

export function redirectConvyCiImports(apiModuleSource: string): void {
  const globals = globalThis as Record<symbol, unknown>
  if (globals[INSTALLED] === true) return
  const apiUrl = dataUrl(apiModuleSource)
  const registerHooks = (nodeModule as { registerHooks?: RegisterHooks }).registerHooks
  if (typeof registerHooks === 'function') {
    registerHooks({ resolve: (specifier, context, next) => (isConvyCiSpecifier(specifier) ? { url: apiUrl, shortCircuit: true } : next(specifier, context)) })
  } else {
    // Node 20–22.14: hooks run in a worker, from a module of their own; the predicate is written out
    // again because a function cannot be sent there.
    const hook = `
      const apiUrl = ${JSON.stringify(apiUrl)};
      export async function resolve(specifier, context, next) {
        if (specifier === 'convy-ci' || specifier.startsWith('convy-ci/')) return { url: apiUrl, shortCircuit: true };
        return next(specifier, context);
      }`
    nodeModule.register(dataUrl(hook))
  }
  globals[INSTALLED] = true
}
