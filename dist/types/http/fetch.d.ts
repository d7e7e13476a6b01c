import { type Dispatcher } from 'undici';
/**
 * The HTTP client every outgoing call of a run goes through: the agent's and convy-ci's own models'.
 * It is undici's `request` under a fetch-shaped function, because Node's built-in fetch spends most
 * of its time in web streams: at 100 conversations in parallel the built-in fetch made the runner
 * CPU-bound (bench/runner.ts), while this costs about a quarter as much per request.
 *
 * Bodies are read whole before the Response is made; streaming protocols use `stream: true`.
 */
export type Fetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;
export interface HttpClientOptions {
    /** Connections kept per origin; a run opens at most about one per conversation in flight. */
    connections?: number;
    dispatcher?: Dispatcher;
}
export declare function createFetch(options?: HttpClientOptions): Fetch;
