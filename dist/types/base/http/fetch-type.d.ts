/** A fetch-shaped HTTP client. Apart from fetch.ts so the public declarations need no undici. */
export type Fetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;
