import type { Fetch } from './fetch-type.js';
/** A request whose answer is read whole: an agent's JSON turn, a chat completion. */
export interface WholeRequest {
    method: string;
    headers: Readonly<Record<string, string>>;
    body?: string;
    signal?: AbortSignal;
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
