import { Agent, request, type Dispatcher } from 'undici'

/**
 * The HTTP client every outgoing call of a run goes through: the agent's and convy-ci's own models'.
 * It is undici's `request` under a fetch-shaped function, because Node's built-in fetch spends most
 * of its time in web streams: at 100 conversations in parallel the built-in fetch made the runner
 * CPU-bound (bench/runner.ts), while this costs about a quarter as much per request.
 *
 * Bodies are read whole before the Response is made; streaming protocols use `stream: true`.
 */
export type Fetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>

export interface HttpClientOptions {
  /** Connections kept per origin; a run opens at most about one per conversation in flight. */
  connections?: number
  dispatcher?: Dispatcher
}

export function createFetch(options: HttpClientOptions = {}): Fetch {
  const dispatcher = options.dispatcher ?? new Agent({ connections: options.connections ?? 256, keepAliveTimeout: 30_000 })
  return async (input, init) => {
    const body = init?.body ?? undefined
    // Anything but a plain body (a stream, a form) goes the built-in way; convy-ci sends strings.
    if (input instanceof Request || !(body === undefined || typeof body === 'string' || body instanceof Uint8Array)) return fetch(input, init)
    const headers = flattenHeaders(init?.headers)
    const answer = await request(String(input), {
      method: (init?.method ?? 'GET') as Dispatcher.HttpMethod,
      headers,
      body,
      signal: init?.signal ?? undefined,
      dispatcher,
    })
    const bytes = await answer.body.arrayBuffer()
    const noBody = answer.statusCode === 204 || answer.statusCode === 304 || init?.method === 'HEAD'
    return new Response(noBody ? null : bytes, { status: answer.statusCode, headers: toHeaderPairs(answer.headers) })
  }
}

function flattenHeaders(headers: RequestInit['headers']): Record<string, string> {
  if (!headers) return {}
  const flat: Record<string, string> = {}
  new Headers(headers).forEach((value, key) => {
    flat[key] = value
  })
  return flat
}

function toHeaderPairs(headers: Record<string, string | string[] | undefined>): [string, string][] {
  const pairs: [string, string][] = []
  for (const [key, value] of Object.entries(headers)) {
    if (Array.isArray(value)) for (const item of value) pairs.push([key, item])
    else if (value !== undefined) pairs.push([key, value])
  }
  return pairs
}
