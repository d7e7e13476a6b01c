import type { Fetch } from './fetch-type.js';
/** A request whose answer is read whole: an agent's JSON turn, a chat completion. */
export interface WholeRequest {
    method: string;
    headers: Readonly<Record<string, string>>;
    body?: string;
    signal?: AbortSignal;
    /** The whole answer must be in within this long, or the request fails with RequestTimedOut. */
    timeoutMs?: number;
    /** Reads the body as it arrives instead of keeping all of it (play/agents/cut-json.ts); default: kept whole. */
    reader?: BodyReader;
}
/**
 * What an answer's body is read through as it arrives, keeping what it chooses: the size bound of the
 * client then holds for what it keeps (`size`), not for the bytes that went through it.
 */
export interface BodyReader {
    push(chunk: Uint8Array): void;
    /** Bytes kept so far. */
    readonly size: number;
    /** The body as kept. */
    end(): Uint8Array;
}
/** No complete answer within the request's timeoutMs (which covers a body that arrives too slowly). */
export declare class RequestTimedOut extends Error {
    readonly ms: number;
    constructor(ms: number);
}
/** Past maxBodyBytes: the request fails and the rest of the answer is not read. */
export declare class ResponseTooLarge extends Error {
    constructor(what: string, limit: number);
}
/** Header names in lower case, as undici gives them. */
export interface WholeAnswer {
    status: number;
    headers: Readonly<Record<string, string | string[] | undefined>>;
    text: string;
}
export type SendWhole = (url: string, request: WholeRequest) => Promise<WholeAnswer>;
/** The whole-answer way of any fetch: createFetch's own, or one made of a plain fetch (tests, users). */
export declare function sendWhole(fetch: Fetch): SendWhole;
/** A header of a whole answer as one string (undici gives repeated headers as an array). */
export declare function headerOf(answer: WholeAnswer, name: string): string | undefined;
