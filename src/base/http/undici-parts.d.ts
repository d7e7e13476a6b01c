// The parts of undici that src/http imports by path (undici.ts says why), typed from undici's own
// declarations.
declare module 'undici/lib/dispatcher/agent.js' {
  import { Agent } from 'undici'
  export = Agent
}

declare module 'undici/lib/api/api-request.js' {
  import type { Dispatcher } from 'undici'
  /** undici's `request`, called with the dispatcher as `this` (its index adds it to Dispatcher's prototype). */
  function request(this: Dispatcher, options: Dispatcher.RequestOptions): Promise<Dispatcher.ResponseData>
  export = request
}

declare module 'undici/lib/core/util.js' {
  /** A URL as undici's `request` accepts it: http(s) only, else InvalidArgumentError. */
  export function parseURL(url: string | URL): URL
  /** Raw header pairs as `request` gives them: names in lower case, a repeated header as an array. */
}
