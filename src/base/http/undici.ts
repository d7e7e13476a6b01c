/* eslint-disable no-restricted-imports -- private undici paths: to be replaced by its public API (issue 22) */
import Agent from 'undici/lib/dispatcher/agent.js'
import apiRequest from 'undici/lib/api/api-request.js'
import { parseURL } from 'undici/lib/core/util.js'
import type { Dispatcher } from 'undici'

// undici's index loads all of undici (its fetch, WebSocket, caches, mocks, proxies): in the CLI's
// bundle, 550 KB that every run compiled and initialised before its first request (bench/runner.ts).
// A run needs the connection pool, `request` and two helpers; these paths are undici's own modules
// (the package has no export map), typed in undici-parts.d.ts.

export { Agent }

/** undici's `request(url, options)` for a given dispatcher, as its index makes it. */
export function request(url: string, options: Omit<Dispatcher.RequestOptions, 'origin' | 'path'> & { dispatcher: Dispatcher }): Promise<Dispatcher.ResponseData> {
  const target = parseURL(url)
  const { dispatcher, ...rest } = options
  return apiRequest.call(dispatcher, { ...rest, origin: target.origin, path: target.search ? `${target.pathname}${target.search}` : target.pathname })
}
