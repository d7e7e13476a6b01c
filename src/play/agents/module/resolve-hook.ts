import * as nodeModule from 'node:module'

/**
 * When Node imports a user's agent module itself, a resolve hook makes its imports resolve the way
 * esbuild and TypeScript's editors resolve them, so a module that runs on a laptop runs in the action:
 * - `import … from 'convy-ci'` gets a data: URL module that re-exports the running convy-ci's API;
 * - a relative import without an extension (`./helpers`) finds helpers.ts, .mts, .js, .mjs or a
 *   helpers/ folder's index; one ending .js or .mjs finds the .ts or .mts file when there is no such
 *   file. Node alone would say "Cannot find module".
 * Files that exist are left to Node, and so is everything imported from under node_modules.
 *
 * The hook is one JavaScript module, because Node 20 to 22.14 run hooks in a worker that only takes
 * a module; Node ≥ 22.15 run the same module's function in this thread (`registerHooks`). A hook is
 * process-wide, so it is installed once.
 */
const INSTALLED = Symbol.for('convy-ci.resolve-hook')

export interface AgentResolveHook {
  /** The file: URL the hook gives a relative import that Node alone would not find; else undefined. */
  agentFile(specifier: string, parentURL: string): string | undefined
}

interface ResolveResult {
  url: string
  shortCircuit?: boolean
}
type ResolveHook = (specifier: string, context: { parentURL?: string }, next: (specifier: string, context: unknown) => ResolveResult) => ResolveResult
// @types/node for Node 20 lacks registerHooks (Node ≥ 22.15).
type RegisterHooks = (hooks: { resolve: ResolveHook }) => unknown

const hookSource = (apiUrl: string) => `
import { statSync } from 'node:fs';
import { sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
const API_URL = ${JSON.stringify(apiUrl)};
const EXTENSIONS = ['.ts', '.mts', '.js', '.mjs'];
const isFile = (path) => { try { return statSync(path).isFile(); } catch { return false; } };
export function agentFile(specifier, parentURL) {
  if (!/^\\.\\.?\\//.test(specifier) || !parentURL || !parentURL.startsWith('file:')) return undefined;
  if (fileURLToPath(parentURL).split(sep).includes('node_modules')) return undefined;
  const path = fileURLToPath(new URL(specifier.replace(/[?#].*$/, ''), parentURL));
  if (isFile(path)) return undefined;
  const typescript = /\\.m?js$/.test(path) ? [path.replace(/js$/, 'ts')] : [];
  const found = [...typescript, ...EXTENSIONS.map((e) => path + e), ...EXTENSIONS.map((e) => path + sep + 'index' + e)].find(isFile);
  return found === undefined ? undefined : pathToFileURL(found).href;
}
export function resolveSync(specifier, context, next) {
  if (specifier === 'convy-ci' || specifier.startsWith('convy-ci/')) return { url: API_URL, shortCircuit: true };
  const found = agentFile(specifier, context.parentURL);
  return found === undefined ? next(specifier, context) : { url: found, shortCircuit: true };
}
export async function resolve(specifier, context, next) {
  return resolveSync(specifier, context, next);
}
`

function dataUrl(source: string): string {
  return `data:text/javascript,${encodeURIComponent(source)}`
}

export async function installAgentResolveHook(apiModuleSource: string): Promise<AgentResolveHook> {
  const globals = globalThis as Record<symbol, unknown>
  const installed = globals[INSTALLED] as AgentResolveHook | undefined
  if (installed !== undefined) return installed
  const url = dataUrl(hookSource(dataUrl(apiModuleSource)))
  const hook = (await import(url)) as AgentResolveHook & { resolveSync: ResolveHook }
  const registerHooks = (nodeModule as { registerHooks?: RegisterHooks }).registerHooks
  if (typeof registerHooks === 'function') registerHooks({ resolve: hook.resolveSync })
  else nodeModule.register(url)
  globals[INSTALLED] = hook
  return hook
}
