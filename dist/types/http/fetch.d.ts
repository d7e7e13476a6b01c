import type { ConnectionOptions } from 'node:tls';
import { type Dispatcher } from 'undici';
/**
 * The HTTP client every outgoing call of a run goes through: the agent's and convy-ci's own models'.
 * It is undici's `request` under a fetch-shaped function, because Node's built-in fetch spends most
 * of its time in web streams: at 100 conversations in parallel the built-in fetch made the runner
 * CPU-bound (bench/runner.ts), while this costs about a quarter as much per request.
 *
 * JSON bodies are read whole before the Response is made, which is what makes it cheap. Any other body
 * (server-sent events, NDJSON, text) is handed over as a stream, so a streaming agent's first token is
 * seen when it arrives.
 */
export type Fetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;
export interface HttpClientOptions {
    /** Connections kept per origin; a run opens at most about one per conversation in flight. */
    connections?: number;
    dispatcher?: Dispatcher;
    /** Certificates for HTTPS: a private CA, a client certificate and key (see tls.ts). */
    tls?: ConnectionOptions;
}
export declare function createFetch(options?: HttpClientOptions): Fetch;
