import type { Fetch } from '../../base/http/fetch-type.js';
import { type BodyReader } from '../../base/http/whole.js';
/**
 * One JSON request to an agent, with failures worded for the person reading a failed turn: which
 * request, which status, and the start of what came back. Aborts (turn timeout, Ctrl+C) are rethrown
 * as the signal's own reason, so the caller can tell them from the agent's failures.
 */
export interface JsonRequest {
    method?: string;
    headers?: Readonly<Record<string, string>>;
    /** Sent as JSON. */
    body?: unknown;
    signal?: AbortSignal;
    /** The HTTP client; default: the built-in fetch. A run passes its own (src/base/http/fetch.ts). */
    fetch?: Fetch;
    /** An answer with no body is null rather than a failure (a tear-down's `204 No Content`). */
    emptyIsNull?: boolean;
    /** Reads the body as it arrives (cut-json.ts); default: kept whole. */
    reader?: BodyReader;
}
/** A non-2xx answer. `excerpt` is the start of the body, for the message and for callers that branch on it. */
export declare class HttpError extends Error {
    readonly status: number;
    readonly excerpt: string;
    constructor(status: number, message: string, excerpt: string);
}
/** The start of a body on one line, for error messages. */
export declare function excerpt(body: string): string;
/** The HttpError of a non-2xx answer, worded the same for a JSON turn and a stream. */
export declare function statusError(what: string, status: number, body: string): Promise<HttpError>;
export declare function fetchJson(url: string, request?: JsonRequest): Promise<unknown>;
/** fetch says only "fetch failed": the message of its root cause says what happened. */
export declare function networkCause(error: unknown): string;
