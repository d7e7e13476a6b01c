import { Readable, Transform } from 'node:stream'
import { fetch as undiciFetch, request, type Dispatcher } from 'undici'
import type { Fetch } from './fetch-type.ts'
import { ResponseTooLarge } from './whole.ts'
import { readResponse } from './read-response.ts'
import { onAbort } from '../shared/abort-listeners.ts'

/**
 * createFetch's `fetch`: undici's `request` under a fetch-shaped function, because a fetch spends most
 * of its time in web streams (at 100 conversations in parallel it made the runner CPU-bound,
 * bench/runner.ts). JSON bodies are read whole, into a Response that answers from the bytes
 * (read-response.ts); any other body
 * (server-sent events, NDJSON, text) is handed over as a stream, so a streaming agent's first token is
 * seen when it arrives.
 */
export function streamFetch(dispatcher: Dispatcher, limit: number | undefined): Fetch {
  const fetchLike: Fetch = async (input, init) => {
    const body = init?.body ?? undefined
    // A Request, or a body that is not plain (a stream, a form), goes through undici's fetch, over the
    // same dispatcher: its proxy and certificates hold for every request. convy-ci itself sends strings.
    if (input instanceof Request || !(body === undefined || typeof body === 'string' || body instanceof Uint8Array)) return otherFetch(input, init, dispatcher)
    const headers = flattenHeaders(init?.headers)
    const signal = init?.signal ?? undefined
    // A client given this fetch and a dispatcher in its options (the `openai` SDK's fetchOptions) sends it here.
    const through = (init as { dispatcher?: Dispatcher } | undefined)?.dispatcher ?? dispatcher
    const answer = await untilAborted(request(String(input), { method: (init?.method ?? 'GET') as Dispatcher.HttpMethod, headers, body, signal, dispatcher: through }), signal)
    const noBody = answer.statusCode === 204 || answer.statusCode === 304 || init?.method === 'HEAD'
    const head = { status: answer.statusCode, headers: toHeaderPairs(answer.headers) }
    const what = `${init?.method ?? 'GET'} ${String(input)}`
    if (noBody || isJson(answer.headers['content-type'])) {
      const bytes = limit === undefined ? new Uint8Array(await answer.body.arrayBuffer()) : await readAtMost(answer.body, limit, what)
      return noBody ? new Response(null, head) : readResponse(bytes, head)
    }
    const stream = limit === undefined ? answer.body : answer.body.pipe(limiter(limit, what))
    if (limit !== undefined) answer.body.on('error', (error) => stream.destroy(error))
    return new Response(Readable.toWeb(stream) as ReadableStream<Uint8Array>, head)
  }
  return fetchLike
}

type UndiciInit = NonNullable<Parameters<typeof undiciFetch>[1]>

function otherFetch(input: string | URL | Request, init: RequestInit | undefined, dispatcher: Dispatcher): Promise<Response> {
  // undici's fetch knows its own Request class only, not the built-in one: a Request is passed as its parts.
  const parts: RequestInit & { duplex?: 'half' } =
    input instanceof Request ? { method: input.method, headers: input.headers, body: input.body, signal: input.signal, duplex: 'half', ...init } : { duplex: 'half', ...init }
  const url = input instanceof Request ? input.url : String(input)
  return undiciFetch(url, { ...(parts as UndiciInit), dispatcher }) as unknown as Promise<Response>
}

export async function readAtMost(body: Readable, limit: number, what: string): Promise<Uint8Array> {
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of body as AsyncIterable<Buffer>) {
    size += chunk.length
    if (size > limit) {
      body.destroy()
      throw new ResponseTooLarge(what, limit)
    }
    chunks.push(chunk)
  }
  return Buffer.concat(chunks, size)
}

function limiter(limit: number, what: string): Transform {
  let size = 0
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      size += chunk.length
      done(size > limit ? new ResponseTooLarge(what, limit) : null, size > limit ? undefined : chunk)
    },
  })
}

function isJson(contentType: string | string[] | undefined): boolean {
  return typeof contentType === 'string' && /^application\/(?:[\w.+-]*\+)?json\s*(?:;|$)/i.test(contentType)
}

function flattenHeaders(headers: RequestInit['headers']): Record<string, string> {
  if (!headers) return {}
  const flat: Record<string, string> = {}
  // The `openai` client sends a Headers already: read it as it is rather than copy it first.
  const given = headers instanceof Headers ? headers : new Headers(headers)
  given.forEach((value, key) => {
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

/**
 * The work's outcome, or the signal's reason as soon as it aborts. undici hears an abort of a request
 * still queued for a connection only once the request reaches one (all connections busy: maybe never
 * before the server answers the others); the caller is told at once, and undici drops the request
 * when it gets there.
 */
export function untilAborted<T>(work: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (signal === undefined) return work
  return new Promise<T>((resolve, reject) => {
    if (signal.aborted) {
      work.catch(() => undefined)
      return reject(signal.reason)
    }
    const stopListening = onAbort(signal, () => reject(signal.reason))
    work.then(resolve, reject).finally(stopListening)
  })
}
