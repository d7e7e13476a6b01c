import type { ClaimDecision, DialogueLine, JudgeRequest, SimulatedUserRequest, UserReviewFindings, UserReviewRequest } from '../../play/conversation/dialogue.js';
/**
 * A fake OpenAI-compatible model server for tests: a real HTTP server on 127.0.0.1 that the real
 * `openai` client talks to. It plays convy-ci's simulated user, judge and reviewer by rule (it reads the
 * requests convy-ci builds), and answers with faults on demand: rate limits, server errors, garbage,
 * dropped connections, answers too slow for the timeout.
 *
 *   const server = await startFakeModelServer({ user: scriptedUser(['Hi', 'Thanks']), judge: judgeByRule(() => true) })
 *   server.enqueue(fakeReply.rateLimited(1))   // the next request gets a 429 with Retry-After: 1
 *   // … point convy-ci at server.url …
 *   await server.close()
 */
export interface FakeUsage {
    inputTokens: number;
    outputTokens: number;
}
/** What the server answers to one chat completion request. Build these with `fakeReply`. */
export type FakeReply = {
    delayMs?: number;
} & ({
    kind: 'answer';
    text: string | null;
    refusal?: string;
    finishReason?: string;
    usage?: FakeUsage;
    toolCalls?: FakeToolCall[];
} | {
    kind: 'error';
    status: number;
    message: string;
    headers?: Record<string, string>;
}
/** 200 with a body that is not JSON. */
 | {
    kind: 'garbage';
}
/** 200 with JSON that is not a chat completion. */
 | {
    kind: 'wrong_shape';
}
/** The connection is closed without an answer. */
 | {
    kind: 'drop';
}
/** Headers and half a body, then nothing until the client gives up. */
 | {
    kind: 'stall';
});
/** A function call the fake model makes: `arguments` is sent as JSON text, as OpenAI sends it. */
export interface FakeToolCall {
    name: string;
    arguments: unknown;
}
export declare const fakeReply: {
    text: (text: string, usage?: FakeUsage) => FakeReply;
    /** An answer that calls these functions (`finish_reason: tool_calls`), for an agent's own model. */
    toolCalls: (calls: readonly FakeToolCall[]) => FakeReply;
    refusal: (refusal: string) => FakeReply;
    error: (status: number, message: string, headers?: Record<string, string>) => FakeReply;
    rateLimited: (retryAfterSeconds?: number) => FakeReply;
    serverError: (status?: number) => FakeReply;
    garbage: () => FakeReply;
    wrongShape: () => FakeReply;
    drop: () => FakeReply;
    stall: () => FakeReply;
    /** Any reply, sent only after `ms`: past a client's timeout, it is a timeout. */
    slow: (ms: number, reply: FakeReply) => FakeReply;
};
/** A chat completion request as the server received it, with what it was recognised as. */
export interface FakeChatRequest {
    model: string;
    messages: unknown[];
    body: Record<string, unknown>;
    /** Set when the request is convy-ci's simulated user asking for a line. */
    user?: SimulatedUserRequest;
    /** Set when the request is convy-ci's judge asking for decisions. */
    judge?: JudgeRequest;
    /** Set when the request is convy-ci's reviewer of a failed attempt's simulated user. */
    review?: UserReviewRequest;
}
export interface RecordedRequest {
    method: string;
    path: string;
    headers: Record<string, string | string[] | undefined>;
    /** The parsed JSON body, or the raw text when it is not JSON. */
    body: unknown;
    kind: 'user' | 'judge' | 'review' | 'other';
    /** When it arrived (Date.now()), to check pauses between tries. */
    at: number;
    /** Which connection it came on: 1 for the server's first, 2 for the next, and so on. */
    connection: number;
}
export interface FakeModelServerOptions {
    /** The simulated user's next line. Default: says "Hello!", then stops. */
    user?: (request: SimulatedUserRequest) => string | Promise<string>;
    /** One decision per claim. Default: every claim passes. */
    judge?: (request: JudgeRequest) => ClaimDecision[] | Promise<ClaimDecision[]>;
    /** The review of a failed attempt's simulated user. Default: no mistake. */
    review?: (request: UserReviewRequest) => UserReviewFindings | Promise<UserReviewFindings>;
    /** Asked first for every chat request; undefined falls through to `user`, `judge` and `review`. */
    handler?: (request: FakeChatRequest) => FakeReply | undefined | Promise<FakeReply | undefined>;
    /** Added before every answer, in milliseconds. */
    latencyMs?: number;
    /** Answer `response_format: json_schema` with a 400, as servers without structured output do. */
    rejectJsonSchema?: boolean;
    /** Require `Authorization: Bearer <apiKey>`; others get a 401 that, like OpenAI's, quotes the key. */
    apiKey?: string;
    /** Listed by GET /v1/models. */
    models?: string[];
}
export interface FakeModelServer {
    /** The base URL, ending in /v1. */
    url: string;
    /** Every request received, in order. */
    requests: RecordedRequest[];
    /** The next requests get these replies, in order, before any rule is asked. */
    enqueue(...replies: FakeReply[]): void;
    /** Forgets queued replies and recorded requests, for a server shared by several tests. */
    reset(): void;
    close(): Promise<void>;
}
/** The simulated user's lines in order, then `###STOP###`; each conversation follows its own dialogue. */
export declare function scriptedUser(lines: readonly string[]): (request: SimulatedUserRequest) => string;
/** A judge that decides each claim with `rule`; true/false get a stock reason. */
export declare function judgeByRule(rule: (claim: string, dialogue: readonly DialogueLine[]) => boolean | ClaimDecision): (request: JudgeRequest) => ClaimDecision[];
/** The judge's answer as convy-ci asks for it: one entry per decision, each with its claim's number. */
export declare function judgeAnswer(decisions: readonly ClaimDecision[]): string;
export declare function startFakeModelServer(options?: FakeModelServerOptions): Promise<FakeModelServer>;
