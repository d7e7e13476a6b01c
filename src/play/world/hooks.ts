import { join } from 'node:path'
import type { Fetch } from '../../base/http/fetch-type.ts'
import { errorMessage, InputError } from '../../base/shared/errors.ts'
import { fetchJson } from '../agents/fetch-json.ts'
import { loadModule } from '../agents/module/module-agent.ts'
import { fillRequest } from '../agents/protocols/body-template.ts'
import type { HttpHook } from '../../records/scenario/world.ts'
import type { PlacedHook } from './attempt-world.ts'

/**
 * Set-up and tear-down around each attempt (docs/scenarios.md, "Setting up the world"): an HTTP
 * request templated like a JSON agent's, or a function a module exports. Each is given the
 * attempt's session id and context; a set-up's JSON map is merged into the context.
 */
export interface HookCall {
  session: string
  /** The attempt's number in its scenario, from 1: with the scenario's id, what names it in every run (a resume, a shard). */
  attempt: number
  context: Readonly<Record<string, unknown>>
  signal: AbortSignal
}

/** What a module's set-up or tear-down function receives; it may return (a promise of) a map for the context. */
export interface HookArguments extends HookCall {
  /** The scenario's id. */
  scenario: string
}
export type HookFunction = (call: HookArguments) => unknown

export interface HookRunner {
  /** What the hook answered (a set-up's map, or anything); throws, in words, when it failed. */
  run(placed: PlacedHook, scenario: string, call: HookCall): Promise<unknown>
}

/** The key a module hook's function is kept under: its file (as the project knows it) and export. */
export function hookKey(placed: PlacedHook & { hook: { kind: 'module' } }): string {
  return `${join(placed.base, placed.hook.module)}#${placed.hook.export}`
}

export function createHookRunner(fetch: Fetch, functions: ReadonlyMap<string, HookFunction>): HookRunner {
  return {
    async run(placed, scenario, call) {
      const { hook } = placed
      if (hook.kind === 'http') return requestHook(hook, call, fetch)
      const run = functions.get(hookKey({ ...placed, hook }))
      // Loaded before the run (loadHookFunctions): a hook missing here is a bug of convy-ci's.
      if (run === undefined) throw new Error(`${hook.module} (${hook.export}) was not loaded before the run`)
      return await run({ ...call, context: { ...call.context }, scenario })
    },
  }
}

async function requestHook(hook: HttpHook, call: HookCall, fetch: Fetch): Promise<unknown> {
  const request = fillRequest({ url: hook.url, headers: hook.headers, body: hook.body }, { text: '', session: call.session, history: [], context: call.context })
  // A tear-down (or a set-up with nothing to add) may answer with no body; a GET sends none.
  const body = hook.method === 'GET' ? undefined : request.body
  return fetchJson(request.url, { method: hook.method, headers: request.headers, body, signal: call.signal, fetch, emptyIsNull: true })
}

/**
 * Loads every module hook the run may call, once, before any attempt: a module that cannot load, or
 * that does not export a function under the name, stops the run here (exit 2), naming where it is set.
 */
export async function loadHookFunctions(hooks: readonly PlacedHook[], options: { projectDir: string; canStripTypes: boolean }): Promise<{ functions: Map<string, HookFunction>; fingerprints: Map<string, string> }> {
  const functions = new Map<string, HookFunction>()
  /** Of each module's sources, by its path: what a resume holds the world to. */
  const fingerprints = new Map<string, string>()
  for (const placed of hooks) {
    const { hook } = placed
    if (hook.kind !== 'module') continue
    const key = hookKey({ ...placed, hook })
    if (functions.has(key)) continue
    const path = join(placed.base, hook.module)
    let exports: Record<string, unknown>
    try {
      const loaded = await loadModule(path, { projectDir: options.projectDir, canStripTypes: options.canStripTypes, buildName: `hook-${path}` }, 'a set-up or tear-down module')
      exports = loaded.exports
      fingerprints.set(path, loaded.fingerprint)
    } catch (error) {
      throw new InputError(`${placed.from}: the module ${hook.module} cannot be loaded: ${errorMessage(error)}`, { cause: error })
    }
    const run = exports[hook.export]
    if (typeof run !== 'function') {
      const found = Object.keys(exports).filter((name) => typeof exports[name] === 'function')
      throw new InputError(`${placed.from}: ${hook.module} exports no function \`${hook.export}\`${found.length ? ` (its functions: ${found.join(', ')})` : ''}; write \`export: NAME\` to use another`)
    }
    functions.set(key, run as HookFunction)
  }
  return { functions, fingerprints }
}
